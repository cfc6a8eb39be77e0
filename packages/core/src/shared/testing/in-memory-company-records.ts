import type { InMemoryStore } from './in-memory-store.js';

/**
 * The base of a fake repository of one company's records by id: it writes and reads copies, as
 * rows of a database are, and finds a record only in its own company. The table is looked up on
 * every call: a rolled-back transaction replaces the store's maps.
 */
export abstract class InMemoryCompanyRecords<T extends { id: string; companyId: string }> {
  constructor(
    protected readonly store: InMemoryStore,
    private readonly tableOf: (store: InMemoryStore) => Map<string, T>,
  ) {}

  /** The records' table of the store as it is now. */
  protected get records(): Map<string, T> {
    return this.tableOf(this.store);
  }

  async insert(record: T): Promise<void> {
    this.records.set(record.id, structuredClone(record));
  }

  async update(record: T): Promise<void> {
    this.records.set(record.id, structuredClone(record));
  }

  async findById(companyId: string, id: string): Promise<T | null> {
    const found = this.records.get(id);
    return found && found.companyId === companyId ? structuredClone(found) : null;
  }

  /** A fake has no row locks: the record as `findById` finds it. */
  async findByIdForUpdate(companyId: string, id: string): Promise<T | null> {
    return this.findById(companyId, id);
  }
}
