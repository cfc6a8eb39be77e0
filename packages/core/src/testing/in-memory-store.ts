import type { ApiKey } from '../api-keys/index.js';
import type { Company } from '../companies/index.js';
import type { DomainEvent } from '../shared/domain-event.js';
import type { Setor } from '../setores/index.js';
import type { Team } from '../teams/index.js';

/**
 * The tables of the in-memory fakes. A feature adds its own tables here; `snapshot` and
 * `restore` give the fake unit of work its rollback.
 */
export class InMemoryStore {
  companies = new Map<string, Company>();
  apiKeys = new Map<string, ApiKey>();
  setores = new Map<string, Setor>();
  teams = new Map<string, Team>();
  /** `company:<id>:<day>` and `setor:<id>:<day>` counters. */
  usage = new Map<string, number>();
  events: DomainEvent[] = [];
  rateLimits = new Map<string, number>();
  /** Jobs enqueued through the in-memory JobScheduler, oldest first. */
  jobs: { id: string; queue: string; data: Record<string, unknown>; startAfter: Date | null; singletonKey: string | null }[] = [];
  /** Tables added by features that the foundation does not know by name. */
  extra = new Map<string, unknown>();

  /** A feature's own table, created on first use. */
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
