import type { EventOutbox } from './domain-event.js';
import type { JobScheduler } from './job-scheduler.js';

/** What every transaction carries whatever the areas: the event outbox and the job queue. */
export interface KernelRepositories {
  events: EventOutbox;
  /** Jobs enqueued here are created in the transaction: they exist if and only if it commits. */
  jobs: JobScheduler;
}

/**
 * The repositories a use case works with: the areas it names (each area exports its own bag, e.g.
 * `CampaignRepositories`, `CompanyRepositories`) plus the kernel's. A use case declares exactly the
 * areas it reads or writes — `Repositories<CampaignRepositories & SetorRepositories>` — so what it
 * can reach is visible in its constructor; the composition roots build one object holding every area.
 */
export type Repositories<Areas extends object = {}> = Areas & KernelRepositories;
/** Service identifier of the repositories outside a transaction (reads); the bound object holds every area. */
export const Repositories = Symbol.for('carteiro.Repositories');

/** Runs use-case steps atomically: all their writes land, or none does. */
export interface UnitOfWork<Areas extends object = {}> {
  /** Runs `work` in one transaction and commits when it resolves; rolls back when it throws. */
  transaction<T>(work: (repos: Repositories<Areas>) => Promise<T>): Promise<T>;
}
export const UnitOfWork = Symbol.for('carteiro.UnitOfWork');
