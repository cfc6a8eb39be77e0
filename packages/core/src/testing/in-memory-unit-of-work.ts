import type { UnitOfWork } from '../shared/unit-of-work.js';
import type { AllAreas, AllRepositories } from './all-repositories.js';
import { InMemoryChannelInstanceRepository } from './in-memory-channel-instance-repository.js';
import { InMemoryChannelHealthRepository } from './in-memory-channel-health-repository.js';
import { InMemoryConversationWindowRepository } from './in-memory-channel-conversation-window-repository.js';
import { InMemoryJobScheduler } from './in-memory-job-scheduler.js';
import { InMemoryCampaignRepository, InMemoryDispatchLaneRepository, InMemoryIdempotencyRepository } from './in-memory-campaign-repositories.js';
import { InMemoryStore } from './in-memory-store.js';
import { InMemoryContactAffinityRepository, InMemoryContactRepository, InMemoryTagRepository } from './in-memory-contact-repositories.js';
import { InMemoryConversationRepository, InMemoryMessageRepository, InMemoryRotationCursorRepository } from './in-memory-message-repositories.js';
import { InMemoryWebhookDeliveryRepository, InMemoryWebhookEventQueue, InMemoryWebhookRepository } from './in-memory-webhook-repositories.js';
import {
  InMemoryApiKeyRepository,
  InMemoryCompanyRepository,
  InMemoryEventOutbox,
  InMemorySetorRepository,
  InMemoryTeamRepository,
  InMemoryUsageRepository,
} from './in-memory-foundation-repositories.js';

/** Every in-memory repository over one store. */
export function inMemoryRepositories(store: InMemoryStore): AllRepositories {
  return {
    companies: new InMemoryCompanyRepository(store),
    apiKeys: new InMemoryApiKeyRepository(store),
    setores: new InMemorySetorRepository(store),
    teams: new InMemoryTeamRepository(store),
    usage: new InMemoryUsageRepository(store),
    events: new InMemoryEventOutbox(store),
    channelInstances: new InMemoryChannelInstanceRepository(store),
    channelHealth: new InMemoryChannelHealthRepository(store),
    conversationWindows: new InMemoryConversationWindowRepository(store),
    contacts: new InMemoryContactRepository(store),
    contactAffinities: new InMemoryContactAffinityRepository(store),
    tags: new InMemoryTagRepository(store),
    rotationCursors: new InMemoryRotationCursorRepository(store),
    conversations: new InMemoryConversationRepository(store),
    messages: new InMemoryMessageRepository(store),
    jobs: new InMemoryJobScheduler(store),
    campaigns: new InMemoryCampaignRepository(store),
    dispatchLanes: new InMemoryDispatchLaneRepository(store),
    idempotency: new InMemoryIdempotencyRepository(store),
    webhooks: new InMemoryWebhookRepository(store),
    webhookDeliveries: new InMemoryWebhookDeliveryRepository(store),
    webhookEvents: new InMemoryWebhookEventQueue(store),
  };
}

/**
 * Transactions over the in-memory store: serialised (as if every transaction locked every
 * row) and rolled back by restoring a snapshot when the work throws.
 */
export class InMemoryUnitOfWork implements UnitOfWork<AllAreas> {
  private tail: Promise<unknown> = Promise.resolve();
  readonly repos: AllRepositories;

  constructor(readonly store: InMemoryStore = new InMemoryStore()) {
    this.repos = inMemoryRepositories(store);
  }

  transaction<T>(work: (repos: AllRepositories) => Promise<T>): Promise<T> {
    const run = async () => {
      const before = this.store.snapshot();
      try {
        return await work(this.repos);
      } catch (error) {
        this.store.restore(before);
        throw error;
      }
    };
    const result = this.tail.then(run, run);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
