import type { ApiKeyRepository } from '../api-keys/api-key-repository.js';
import type { ChannelInstanceRepository } from '../channel/channel-instance-repository.js';
import type { ChannelHealthRepository } from '../channel/channel-health-repository.js';
import type { ConversationWindowRepository } from '../channel/conversation-window-repository.js';
import type { CompanyRepository } from '../companies/company-repository.js';
import type { EventOutbox } from './domain-event.js';
import type { JobScheduler } from './job-scheduler.js';
import type { SetorRepository } from '../setores/setor-repository.js';
import type { TeamRepository } from '../teams/team-repository.js';
import type { UsageRepository } from '../usage/usage-repository.js';
import type { ContactRepository } from '../contacts/contact-repository.js';
import type { ContactAffinityRepository } from '../contacts/contact-affinity-repository.js';
import type { TagRepository } from '../tags/tag-repository.js';
import type { RotationCursorRepository } from '../routing/rotation-cursor-repository.js';
import type { ConversationRepository } from '../messages/conversation-repository.js';
import type { MessageRepository } from '../messages/message-repository.js';
import type { WebhookRepository } from '../webhooks/webhook-repository.js';
import type { WebhookDeliveryRepository } from '../webhooks/webhook-delivery-repository.js';
import type { WebhookEventQueue } from '../webhooks/webhook-event-queue.js';
import type { CampaignRepository } from '../campaigns/campaign-repository.js';
import type { DispatchLaneRepository } from '../campaigns/dispatch-lane-repository.js';
import type { IdempotencyRepository } from '../campaigns/idempotency-repository.js';

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
  channelHealth: ChannelHealthRepository;
  conversationWindows: ConversationWindowRepository;
  contacts: ContactRepository;
  contactAffinities: ContactAffinityRepository;
  tags: TagRepository;
  rotationCursors: RotationCursorRepository;
  conversations: ConversationRepository;
  messages: MessageRepository;
  /** Jobs enqueued here are created in the transaction: they exist if and only if it commits. */
  jobs: JobScheduler;
  webhooks: WebhookRepository;
  webhookDeliveries: WebhookDeliveryRepository;
  webhookEvents: WebhookEventQueue;
  campaigns: CampaignRepository;
  dispatchLanes: DispatchLaneRepository;
  idempotency: IdempotencyRepository;
}
export const Repositories = Symbol.for('carteiro.Repositories');

/** Runs use-case steps atomically: all their writes land, or none does. */
export interface UnitOfWork {
  /** Runs `work` in one transaction and commits when it resolves; rolls back when it throws. */
  transaction<T>(work: (repos: Repositories) => Promise<T>): Promise<T>;
}
export const UnitOfWork = Symbol.for('carteiro.UnitOfWork');
