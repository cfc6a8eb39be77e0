import type { Page, PageRequest } from '../shared/pagination.js';
import type { Team } from './team.js';

/** Stores teams with their setores and assignment settings (members: the agents area). */
export interface TeamRepository {
  insert(team: Team): Promise<void>;
  /** Writes name, setores (replace-all, in order) and assignment settings. */
  update(team: Team): Promise<void>;
  findByIdInCompany(companyId: string, id: string): Promise<Team | null>;
  /** The team whatever its company (the operator's routes by id); null when missing. */
  findById(id: string): Promise<Team | null>;
  listByCompany(companyId: string, page: PageRequest): Promise<Page<Team>>;
  count(companyId: string): Promise<number>;
  /**
   * Locks the team row for the rest of the transaction (SELECT … FOR UPDATE) and answers the team:
   * concurrent auto-assignments of one team take turns, so two never pick the same last free slot.
   */
  lockForAssignment(teamId: string): Promise<Team | null>;
}
export const TeamRepository = Symbol.for('carteiro.TeamRepository');
