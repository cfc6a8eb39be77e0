import type { InMemoryStore } from './in-memory-store.js';

/**
 * The base of a fake repository of records by id: it writes and reads copies, as rows of a
 * database are. The table is looked up on every call: a rolled-back transaction replaces the
 * store's maps.
 */
export abstract class InMemoryTable<T extends { id: string }> {
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

  /** A copy of the record with this id, if there is one and `keep` keeps it. */
  protected copyOf(id: string, keep: (record: T) => boolean = () => true): T | null {
    const found = this.records.get(id);
    return found && keep(found) ? structuredClone(found) : null;
  }

  /** Copies of the records `keep` keeps, in the table's order. */
  protected copiesWhere(keep: (record: T) => boolean): T[] {
    return [...this.records.values()].filter(keep).map((record) => structuredClone(record));
  }
}

/** A fake repository of records found by their id alone (companies, keys, setores, teams). */
export abstract class InMemoryRecords<T extends { id: string }> extends InMemoryTable<T> {
  async findById(id: string): Promise<T | null> {
    return this.copyOf(id);
  }
}
