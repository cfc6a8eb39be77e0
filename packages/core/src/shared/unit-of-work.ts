import type { ApiKeyRepository } from '../api-keys/api-key-repository.js';
import type { ChannelInstanceRepository } from '../channel/channel-instance-repository.js';
import type { CompanyRepository } from '../companies/company-repository.js';
import type { EventOutbox } from '../events/domain-event.js';
import type { SetorRepository } from '../setores/setor-repository.js';
import type { TeamRepository } from '../teams/team-repository.js';
import type { UsageRepository } from '../usage/usage-repository.js';
import type { WebhookRepository } from '../webhooks/webhook-repository.js';
import type { WebhookDeliveryRepository } from '../webhooks/webhook-delivery-repository.js';
import type { WebhookEventQueue } from '../webhooks/webhook-event-queue.js';

/**
 * Every repository of the service. Inside `UnitOfWork.transaction` they all write in one
 * transaction; the bag bound to `Repositories` in a container writes outside of one (reads).
 */
export interface Repositories {
  companies: CompanyRepository;
  apiKeys: ApiKeyRepository;
  setores: SetorRepository;
  teams: TeamRepository;
  usage: UsageRepository;
  events: EventOutbox;
  channelInstances: ChannelInstanceRepository;
  webhooks: WebhookRepository;
  webhookDeliveries: WebhookDeliveryRepository;
  webhookEvents: WebhookEventQueue;
}
export const Repositories = Symbol.for('carteiro.Repositories');

/** Runs use-case steps atomically: all their writes land, or none does. */
export interface UnitOfWork {
  /** Runs `work` in one transaction and commits when it resolves; rolls back when it throws. */
  transaction<T>(work: (repos: Repositories) => Promise<T>): Promise<T>;
}
export const UnitOfWork = Symbol.for('carteiro.UnitOfWork');
