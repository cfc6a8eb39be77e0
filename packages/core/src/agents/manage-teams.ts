import type { CompanyRepositories } from '../companies/index.js';
import type { SetorRepositories } from '../setores/index.js';
import { withTeamSettings, type Team, type TeamRepositories } from '../teams/index.js';
import type { Clock } from '../shared/clock.js';
import { NotFoundError, ValidationError } from '../shared/errors.js';
import type { Page, PageRequest } from '../shared/pagination.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import { isAssignable } from './agent.js';
import type { AgentRepositories } from './agent-repositories.js';
import type { TeamMember } from './agent-repository.js';
import type { AgentStatusListener } from './agent-status-listener.js';

type Areas = AgentRepositories & CompanyRepositories & SetorRepositories & TeamRepositories;

/** A team with its members (GET /v1/teams, the operator's team routes). */
export interface TeamWithMembers {
  team: Team;
  members: TeamMember[];
}

/** The operator's team changes: `nome`, `setorIds` and `agentIds` replace-all, `autoAssign`, `maxOpenPerAgent`. */
export interface TeamUpdateInput {
  nome?: string;
  setorIds?: string[];
  agentIds?: string[];
  autoAssign?: boolean;
  maxOpenPerAgent?: number;
}

/**
 * Teams as the tickets see them: members and auto-assignment settings. Changes that may let a
 * member take queued tickets (members added, auto-assignment on, a higher cap) are told to the
 * {@link AgentStatusListener}s for each available member once committed.
 */
export class ManageTeams {
  constructor(
    private readonly uow: UnitOfWork<Areas>,
    private readonly repos: Repositories<Areas>,
    private readonly clock: Clock,
    private readonly listeners: readonly AgentStatusListener[] = [],
  ) {}

  async list(companyId: string, page: PageRequest): Promise<Page<TeamWithMembers>> {
    const teams = await this.repos.teams.listByCompany(companyId, page);
    return { ...teams, items: await this.withMembers(teams.items) };
  }

  /** The operator's list: the company must exist. */
  async listOfCompany(companyId: string, page: PageRequest): Promise<Page<TeamWithMembers>> {
    if (!(await this.repos.companies.findById(companyId))) throw new NotFoundError('Company');
    return this.list(companyId, page);
  }

  async update(id: string, input: TeamUpdateInput): Promise<TeamWithMembers> {
    const { team, members, wake } = await this.uow.transaction(async (repos) => {
      // The team row's lock keeps an auto-assignment from reading half of the change.
      const current = await repos.teams.lockForAssignment(id);
      if (!current) throw new NotFoundError('Team');
      let team = withTeamSettings(current, input);
      if (input.setorIds !== undefined) {
        const setorIds = [...new Set(input.setorIds)];
        for (const setorId of setorIds) {
          if (!(await repos.setores.findByIdInCompany(team.companyId, setorId))) {
            throw new ValidationError(`Setor ${setorId} does not belong to this company`, { field: 'setor_ids', setor_id: setorId });
          }
        }
        team = { ...team, setorIds };
      }
      await repos.teams.update(team);
      const previous = new Set((await repos.agents.membersOfTeams([id])).map((m) => m.agentId));
      if (input.agentIds !== undefined) {
        const agentIds = [...new Set(input.agentIds)];
        const found = new Set((await repos.agents.findManyByIds(team.companyId, agentIds)).map((a) => a.id));
        const unknown = agentIds.filter((agentId) => !found.has(agentId));
        if (unknown.length > 0) {
          throw new ValidationError('Some agents do not belong to this company', { field: 'agent_ids', agent_ids: unknown });
        }
        await repos.agents.setTeamMembers(team.companyId, id, agentIds, this.clock.now());
      }
      const members = (await repos.agents.membersOfTeams([id])).filter((m) => m.teamId === id);
      const opened = team.autoAssign && (!current.autoAssign || team.maxOpenPerAgent > current.maxOpenPerAgent);
      const wake = members.filter((m) => isAssignable(m) && (opened || (team.autoAssign && !previous.has(m.agentId))));
      return { team, members, wake };
    });
    for (const member of wake) for (const listener of this.listeners) await listener.onAgentChanged(team.companyId, member.agentId);
    return { team, members };
  }

  private async withMembers(teams: Team[]): Promise<TeamWithMembers[]> {
    const members = await this.repos.agents.membersOfTeams(teams.map((t) => t.id));
    return teams.map((team) => ({ team, members: members.filter((m) => m.teamId === team.id) }));
  }
}
