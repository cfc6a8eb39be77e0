import { ValidationError } from '../shared/errors.js';

/** A group of setores (`team_id` sends rotate among them) and of agents (tickets are assigned among them). */
export interface Team {
  id: string;
  companyId: string;
  nome: string;
  setorIds: string[];
  /** A team-only assignment picks an available member (conversations.md §3). */
  autoAssign: boolean;
  /** Auto-assignment skips members with this many open tickets. */
  maxOpenPerAgent: number;
  createdAt: Date;
}

/** Teams per company (conversations.md §11). */
export const MAX_TEAMS = 100;
export const DEFAULT_MAX_OPEN_PER_AGENT = 10;
export const MAX_OPEN_PER_AGENT_LIMIT = 1000;

/** A new team with the default assignment settings. */
export function createTeam(id: string, companyId: string, now: Date, input: { nome: string; setorIds?: string[]; autoAssign?: boolean; maxOpenPerAgent?: number }): Team {
  return withTeamSettings(
    { id, companyId, nome: input.nome, setorIds: [...new Set(input.setorIds ?? [])], autoAssign: false, maxOpenPerAgent: DEFAULT_MAX_OPEN_PER_AGENT, createdAt: now },
    { autoAssign: input.autoAssign, maxOpenPerAgent: input.maxOpenPerAgent },
  );
}

/** Applies name and assignment settings; omitted fields keep theirs. */
export function withTeamSettings(team: Team, input: { nome?: string; autoAssign?: boolean; maxOpenPerAgent?: number }): Team {
  if (input.nome !== undefined && (input.nome.trim().length < 1 || input.nome.length > 200)) {
    throw new ValidationError('nome must have 1-200 characters', { field: 'nome' });
  }
  const max = input.maxOpenPerAgent;
  if (max !== undefined && (!Number.isInteger(max) || max < 1 || max > MAX_OPEN_PER_AGENT_LIMIT)) {
    throw new ValidationError(`max_open_per_agent must be an integer 1-${MAX_OPEN_PER_AGENT_LIMIT}`, { field: 'max_open_per_agent' });
  }
  return {
    ...team,
    nome: input.nome !== undefined ? input.nome.trim() : team.nome,
    autoAssign: input.autoAssign ?? team.autoAssign,
    maxOpenPerAgent: max ?? team.maxOpenPerAgent,
  };
}
