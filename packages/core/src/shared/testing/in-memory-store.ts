import type { DomainEvent } from '../domain-event.js';

/**
 * The tables of the in-memory fakes, knowing no area: each area's fakes create their own tables
 * through {@link InMemoryStore.table} (or {@link storeTable}, which also names them on every store);
 * `snapshot` and `restore` give the fake unit of work its rollback.
 */
export class InMemoryStore {
  events: DomainEvent[] = [];
  /** Jobs enqueued through the in-memory JobScheduler, oldest first. */
  jobs: { id: string; queue: string; data: Record<string, unknown>; startAfter: Date | null; singletonKey: string | null }[] = [];
  /** The areas' tables, by name. */
  extra = new Map<string, unknown>();

  /** An area's own table, created on first use. */
  table<T>(name: string, create: () => T): T {
    if (!this.extra.has(name)) this.extra.set(name, create());
    return this.extra.get(name) as T;
  }

  snapshot(): unknown {
    return structuredClone({ ...this });
  }

  restore(snapshot: unknown): void {
    Object.assign(this, structuredClone(snapshot));
  }
}

/**
 * Names an area's table on every store: `store.<name>` is then `store.table(name, create)`. The
 * area types the property by declaration merging:
 *
 * @example
 * declare module '../../shared/testing/in-memory-store.js' {
 *   interface InMemoryStore { companies: Map<string, Company> }
 * }
 * storeTable('companies', () => new Map<string, Company>());
 */
export function storeTable<Name extends keyof InMemoryStore & string>(name: Name, create: () => InMemoryStore[Name]): void {
  Object.defineProperty(InMemoryStore.prototype, name, {
    configurable: true,
    get(this: InMemoryStore) {
      return this.table(name, create);
    },
  });
}

export function paginate<T>(all: T[], page: { page: number; limit: number }) {
  const start = (page.page - 1) * page.limit;
  return {
    items: all.slice(start, start + page.limit),
    total: all.length,
    page: page.page,
    limit: page.limit,
    totalPages: Math.ceil(all.length / page.limit),
  };
}

/** Oldest first, ties by id: the order the fakes list rows in. */
export const byCreation = <T extends { createdAt: Date; id: string }>(a: T, b: T) =>
  a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id);
