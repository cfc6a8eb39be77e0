import type { ApiKey } from '../api-keys/index.js';
import type { ApiKeyRepository } from '../api-keys/index.js';
import type { Company } from '../companies/index.js';
import type { CompanyRepository } from '../companies/index.js';
import type { DomainEvent, EventOutbox } from '../shared/domain-event.js';
import type { PageRequest } from '../shared/pagination.js';
import type { Setor } from '../setores/index.js';
import type { SetorRepository } from '../setores/index.js';
import type { Team } from '../teams/index.js';
import type { TeamRepository } from '../teams/index.js';
import type { UsageRepository } from '../usage/index.js';
import { paginate, type InMemoryStore } from './in-memory-store.js';
import type { ApiKeyRepositories } from '../api-keys/index.js';
import type { CompanyRepositories } from '../companies/index.js';
import type { SetorRepositories } from '../setores/index.js';
import type { TeamRepositories } from '../teams/index.js';
import type { UsageRepositories } from '../usage/index.js';

const byCreation = <T extends { createdAt: Date; id: string }>(a: T, b: T) =>
  a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id);

export class InMemoryCompanyRepository implements CompanyRepository {
  constructor(private readonly store: InMemoryStore) {}
  async insert(company: Company) {
    this.store.companies.set(company.id, structuredClone(company));
  }
  async update(company: Company) {
    this.store.companies.set(company.id, structuredClone(company));
  }
  async findById(id: string) {
    const found = this.store.companies.get(id);
    return found ? structuredClone(found) : null;
  }
  async findByIdForUpdate(id: string) {
    return this.findById(id);
  }
  async adjustBalance(id: string, delta: number) {
    const company = this.store.companies.get(id);
    if (!company || company.avulsoBalance + delta < 0) return null;
    company.avulsoBalance += delta;
    return company.avulsoBalance;
  }
}

export class InMemoryApiKeyRepository implements ApiKeyRepository {
  constructor(private readonly store: InMemoryStore) {}
  async insert(key: ApiKey) {
    this.store.apiKeys.set(key.id, structuredClone(key));
  }
  async update(key: ApiKey) {
    this.store.apiKeys.set(key.id, structuredClone(key));
  }
  async findById(id: string) {
    const found = this.store.apiKeys.get(id);
    return found ? structuredClone(found) : null;
  }
  async findByHash(keyHash: string) {
    const found = [...this.store.apiKeys.values()].find((k) => k.keyHash === keyHash);
    return found ? structuredClone(found) : null;
  }
  async listByCompany(companyId: string, page: PageRequest) {
    const all = [...this.store.apiKeys.values()].filter((k) => k.companyId === companyId).sort(byCreation);
    return paginate(all.map((k) => structuredClone(k)), page);
  }
}

export class InMemorySetorRepository implements SetorRepository {
  constructor(private readonly store: InMemoryStore) {}
  async insert(setor: Setor) {
    this.store.setores.set(setor.id, structuredClone(setor));
  }
  async update(setor: Setor) {
    this.store.setores.set(setor.id, structuredClone(setor));
  }
  async findById(id: string) {
    const found = this.store.setores.get(id);
    return found ? structuredClone(found) : null;
  }
  /** The in-memory unit of work runs one transaction at a time: no lock to take. */
  findByIdLocking(id: string) {
    return this.findById(id);
  }
  async findByIdInCompany(companyId: string, id: string) {
    const found = this.store.setores.get(id);
    return found && found.companyId === companyId ? structuredClone(found) : null;
  }
  async listByCompany(companyId: string, page: PageRequest) {
    return paginate(await this.allOfCompany(companyId), page);
  }
  async allOfCompany(companyId: string) {
    return [...this.store.setores.values()]
      .filter((s) => s.companyId === companyId)
      .sort(byCreation)
      .map((s) => structuredClone(s));
  }
}

export class InMemoryTeamRepository implements TeamRepository {
  constructor(private readonly store: InMemoryStore) {}
  async insert(team: Team) {
    this.store.teams.set(team.id, structuredClone(team));
  }
  async findByIdInCompany(companyId: string, id: string) {
    const found = this.store.teams.get(id);
    return found && found.companyId === companyId ? structuredClone(found) : null;
  }
  async listByCompany(companyId: string, page: PageRequest) {
    const all = [...this.store.teams.values()].filter((t) => t.companyId === companyId).sort(byCreation);
    return paginate(all.map((t) => structuredClone(t)), page);
  }
  async update(team: Team) {
    if (this.store.teams.has(team.id)) this.store.teams.set(team.id, structuredClone(team));
  }
  async findById(id: string) {
    const found = this.store.teams.get(id);
    return found ? structuredClone(found) : null;
  }
  async count(companyId: string) {
    return [...this.store.teams.values()].filter((t) => t.companyId === companyId).length;
  }
  async lockForAssignment(teamId: string) {
    // The in-memory unit of work runs one transaction at a time: nothing more to lock.
    return this.findById(teamId);
  }
}

export class InMemoryUsageRepository implements UsageRepository {
  constructor(private readonly store: InMemoryStore) {}
  private add(key: string, count: number) {
    this.store.usage.set(key, Math.max(0, (this.store.usage.get(key) ?? 0) + count));
  }
  async addSent(companyId: string, setorId: string | null, day: string, count: number) {
    this.add(`company:${companyId}:${day}`, count);
    if (setorId) this.add(`setor:${setorId}:${day}`, count);
  }
  async sentByCompany(companyId: string, day: string) {
    return this.store.usage.get(`company:${companyId}:${day}`) ?? 0;
  }
  async sentBySetor(setorId: string, day: string) {
    return this.store.usage.get(`setor:${setorId}:${day}`) ?? 0;
  }
  async setorHistory(setorId: string, beforeDay: string) {
    let activeDays = 0;
    let totalSent = 0;
    for (const [key, sent] of this.store.usage) {
      const [kind, id, day] = key.split(':');
      if (kind === 'setor' && id === setorId && day !== undefined && day < beforeDay && sent > 0) {
        activeDays += 1;
        totalSent += sent;
      }
    }
    return { activeDays, totalSent };
  }
}

export class InMemoryEventOutbox implements EventOutbox {
  constructor(private readonly store: InMemoryStore) {}
  async record(events: readonly DomainEvent[]) {
    this.store.events.push(...structuredClone(events));
  }
  async purgeBefore(before: Date) {
    // Only events the webhook fan-out already took (before its cursor) may go; the cursor moves with them.
    const position = this.store.table('webhookEventCursor', () => ({ taken: 0 }));
    const taken = this.store.events.slice(0, position.taken);
    const kept = taken.filter((e) => e.occurredAt >= before);
    const removed = taken.length - kept.length;
    this.store.events = [...kept, ...this.store.events.slice(position.taken)];
    position.taken -= removed;
    return removed;
  }
}

/** The foundation areas' fakes (companies, API keys, setores, teams, usage) over one store. */
export function inMemoryFoundationRepositories(
  store: InMemoryStore,
): CompanyRepositories & ApiKeyRepositories & SetorRepositories & TeamRepositories & UsageRepositories {
  return {
    companies: new InMemoryCompanyRepository(store),
    apiKeys: new InMemoryApiKeyRepository(store),
    setores: new InMemorySetorRepository(store),
    teams: new InMemoryTeamRepository(store),
    usage: new InMemoryUsageRepository(store),
  };
}
