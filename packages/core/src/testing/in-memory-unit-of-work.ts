import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import { inMemoryAgentRepositories } from '../agents/testing/in-memory-agent-repositories.js';
import { inMemoryQuickReplyRepositories } from '../quick-replies/testing/in-memory-quick-reply-repositories.js';
import { inMemoryBillingRepositories } from '../billing/testing/in-memory-billing-repositories.js';
import { inMemoryReceiptRepositories } from '../receipts/testing/in-memory-receipt-repositories.js';
import { inMemoryLeadRepositories } from '../leads/testing/in-memory-lead-repositories.js';
import { inMemoryCampaignRepositories } from '../campaigns/testing/in-memory-campaign-repositories.js';
import { inMemoryChannelRepositories } from '../channel/testing/in-memory-channel-repositories.js';
import { inMemoryContactRepositories } from '../contacts/testing/in-memory-contact-repositories.js';
import { inMemoryContractRepositories } from '../contracts/testing/in-memory-contract-repositories.js';
import { inMemoryCrmRepositories } from '../crm/testing/in-memory-crm-repositories.js';
import { inMemoryMessageRepositories } from '../messages/testing/in-memory-message-repositories.js';
import { inMemorySchedulingRepositories } from '../scheduling/testing/in-memory-scheduling-repositories.js';
import { inMemoryTagRepositories } from '../tags/testing/in-memory-tag-repositories.js';
import { inMemoryTicketRepositories } from '../tickets/testing/in-memory-ticket-repositories.js';
import { inMemoryTicketReplyRepositories } from '../tickets/testing/in-memory-ticket-reply-repositories.js';
import { inMemoryWebhookRepositories } from '../webhooks/testing/in-memory-webhook-repositories.js';
import { inMemoryApiKeyRepositories } from '../api-keys/testing/in-memory-api-key-repositories.js';
import { inMemoryCompanyRepositories } from '../companies/testing/in-memory-company-repositories.js';
import { inMemorySetorRepositories } from '../setores/testing/in-memory-setor-repositories.js';
import { inMemoryTeamRepositories } from '../teams/testing/in-memory-team-repositories.js';
import { inMemoryUsageRepositories } from '../usage/testing/in-memory-usage-repositories.js';
import { InMemoryEventOutbox, InMemoryJobScheduler, InMemoryStore } from '../shared/testing/index.js';

/** Every area's fakes, one line each: the in-memory composition root (the PostgreSQL one is `postgresAreas`). */
const inMemoryAreas = [
  inMemoryCompanyRepositories,
  inMemoryApiKeyRepositories,
  inMemorySetorRepositories,
  inMemoryTeamRepositories,
  inMemoryUsageRepositories,
  inMemoryChannelRepositories,
  inMemoryContactRepositories,
  inMemoryTagRepositories,
  inMemoryTicketRepositories,
  inMemoryTicketReplyRepositories,
  inMemoryMessageRepositories,
  inMemoryCampaignRepositories,
  inMemoryWebhookRepositories,
  inMemoryCrmRepositories,
  inMemorySchedulingRepositories,
  inMemoryContractRepositories,
  inMemoryLeadRepositories,
  inMemoryBillingRepositories,
  inMemoryAgentRepositories,
  inMemoryQuickReplyRepositories,
  inMemoryReceiptRepositories,
];

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/**
 * Every area's repositories together: what the fakes' unit of work and the contract suites hand
 * out. Production code never names this type; each use case names the areas it uses.
 */
export type AllAreas = UnionToIntersection<ReturnType<(typeof inMemoryAreas)[number]>>;
/** {@link AllAreas} with the kernel's outbox and job queue. */
export type AllRepositories = Repositories<AllAreas>;

/** Every in-memory repository over one store, with the kernel's outbox and job queue. */
export function inMemoryRepositories(store: InMemoryStore): AllRepositories {
  const areas = inMemoryAreas.map((area) => area(store));
  return Object.assign({ events: new InMemoryEventOutbox(store), jobs: new InMemoryJobScheduler(store) }, ...areas) as AllRepositories;
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
