import type { Team, TeamRepositories, TeamRepository } from '../index.js';
import type { PageRequest } from '../../shared/pagination.js';
import { byCreation, paginate, storeTable, type InMemoryStore } from '../../shared/testing/index.js';

declare module '../../shared/testing/in-memory-store.js' {
  interface InMemoryStore {
    teams: Map<string, Team>;
  }
}
storeTable('teams', () => new Map<string, Team>());

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

export function inMemoryTeamRepositories(store: InMemoryStore): TeamRepositories {
  return { teams: new InMemoryTeamRepository(store) };
}
