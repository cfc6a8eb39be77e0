import type { Team, TeamRepositories, TeamRepository } from '../index.js';
import type { PageRequest } from '../../shared/pagination.js';
import { byCreation, paginate, storeTable, type InMemoryStore } from '../../shared/testing/index.js';
import { InMemoryRecords } from '../../shared/testing/in-memory-records.js';

declare module '../../shared/testing/in-memory-store.js' {
  interface InMemoryStore {
    teams: Map<string, Team>;
  }
}
storeTable('teams', () => new Map<string, Team>());

export class InMemoryTeamRepository extends InMemoryRecords<Team> implements TeamRepository {
  constructor(store: InMemoryStore) {
    super(store, (s) => s.teams);
  }
  async findByIdInCompany(companyId: string, id: string) {
    return this.copyOf(id, (t) => t.companyId === companyId);
  }
  async listByCompany(companyId: string, page: PageRequest) {
    return paginate(this.copiesWhere((t) => t.companyId === companyId).sort(byCreation), page);
  }
  /** Only a team that exists is written (an update never creates one). */
  override async update(team: Team) {
    if (this.records.has(team.id)) await super.update(team);
  }
  async count(companyId: string) {
    return [...this.records.values()].filter((t) => t.companyId === companyId).length;
  }
  async lockForAssignment(teamId: string) {
    // The in-memory unit of work runs one transaction at a time: nothing more to lock.
    return this.findById(teamId);
  }
}

export function inMemoryTeamRepositories(store: InMemoryStore): TeamRepositories {
  return { teams: new InMemoryTeamRepository(store) };
}
