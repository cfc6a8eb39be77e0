import type { Page, PageRequest } from '../shared/pagination.js';
import type { Team } from './team.js';

/** Stores teams with their setores. */
export interface TeamRepository {
  insert(team: Team): Promise<void>;
  findByIdInCompany(companyId: string, id: string): Promise<Team | null>;
  listByCompany(companyId: string, page: PageRequest): Promise<Page<Team>>;
}
