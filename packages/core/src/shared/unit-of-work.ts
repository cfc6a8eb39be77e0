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
  /**
   * Runs `work` in one transaction and commits when it resolves; rolls back when it throws. When the store
   * chose this transaction as the victim of a conflict between transactions (a deadlock, a serialization
   * failure), it rejects with {@link TransactionConflict}: nothing was written, and the same work may run again.
   */
  transaction<T>(work: (repos: Repositories<Areas>) => Promise<T>): Promise<T>;
}
export const UnitOfWork = Symbol.for('carteiro.UnitOfWork');

/** The store rolled a transaction back to break a conflict with others (see {@link UnitOfWork.transaction}). */
export class TransactionConflict extends Error {
  constructor(override readonly cause: unknown) {
    super(`The transaction conflicted with another and was rolled back: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'TransactionConflict';
  }
}

/**
 * Runs `work` in a transaction, again (up to `attempts` in all) when it was a conflict's victim. Only for
 * work whose every effect is inside the transaction: nothing it did outside (a provider call) is undone.
 */
export async function transactionWithRetry<Areas extends object, T>(uow: UnitOfWork<Areas>, work: (repos: Repositories<Areas>) => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await uow.transaction(work);
    } catch (error) {
      if (!(error instanceof TransactionConflict) || attempt >= attempts) throw error;
    }
  }
}
