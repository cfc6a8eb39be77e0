import { InMemoryTable } from './in-memory-records.js';

/**
 * The base of a fake repository of one company's records by id: it writes and reads copies, as
 * rows of a database are, and finds a record only in its own company.
 */
export abstract class InMemoryCompanyRecords<T extends { id: string; companyId: string }> extends InMemoryTable<T> {
  async findById(companyId: string, id: string): Promise<T | null> {
    return this.copyOf(id, (found) => found.companyId === companyId);
  }

  /** A fake has no row locks: the record as `findById` finds it. */
  async findByIdForUpdate(companyId: string, id: string): Promise<T | null> {
    return this.findById(companyId, id);
  }
}
