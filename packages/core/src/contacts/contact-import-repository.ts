import type { ContactImport, PreparedImportRow } from './contact-import.js';

/** Stores import jobs and their prepared rows, batch by batch. */
export interface ContactImportRepository {
  /** Stores a new job and its rows, cut in batches (`batches[i]` is batch `i`). */
  insert(job: ContactImport, batches: readonly (readonly PreparedImportRow[])[]): Promise<void>;
  findById(companyId: string, id: string): Promise<ContactImport | null>;
  /** By id, the row locked until the transaction ends. */
  findByIdForUpdate(id: string): Promise<ContactImport | null>;
  /** Saves status, counts, errors, lease and times. */
  save(job: ContactImport): Promise<void>;
  /** The rows of one batch. */
  loadBatch(importId: string, batch: number): Promise<PreparedImportRow[]>;
  /**
   * Locks the company's imports (until the transaction ends) and counts those queued or running:
   * two concurrent creations cannot both see room for one more.
   */
  lockAndCountActive(companyId: string): Promise<number>;
  /** Ids of unfinished imports whose worker is gone: running with an expired lease, or queued since before `queuedBefore`. */
  listStale(now: Date, queuedBefore: Date): Promise<string[]>;
}
export const ContactImportRepository = Symbol.for('carteiro.ContactImportRepository');
