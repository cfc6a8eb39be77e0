import type { CompanyRepositories } from '../companies/index.js';
import type { TeamRepositories } from '../teams/index.js';
import type { Clock } from '../shared/clock.js';
import { assertBelowCompanyLimit, DomainError, NotFoundError, ValidationError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Page, PageRequest } from '../shared/pagination.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import { MAX_AGENTS, availabilityChanged, createAgent, isAssignable, updateAgent, type Agent, type AgentInput, type AgentStatus } from './agent.js';
import type { AgentRepositories } from './agent-repositories.js';
import type { AgentFilters } from './agent-repository.js';
import type { AgentStatusListener } from './agent-status-listener.js';

type Areas = AgentRepositories & CompanyRepositories & TeamRepositories;

/** An agent with the number of its non-closed tickets (GET /v1/agents). */
export interface AgentWithLoad {
  agent: Agent;
  openTickets: number;
}

const duplicate = (existing: Agent) => new DomainError('CONFLICT', `An agent with email ${existing.email} already exists`, { agent_id: existing.id });

/**
 * Agents (GET /v1/agents, PATCH /v1/agents/:id/status, the operator's POST/GET/PATCH): emails
 * unique per company ignoring case, at most {@link MAX_AGENTS} per company, never deleted. A change
 * of availability is told to the {@link AgentStatusListener}s once committed.
 */
export class ManageAgents {
  constructor(
    private readonly uow: UnitOfWork<Areas>,
    private readonly repos: Repositories<Areas>,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly listeners: readonly AgentStatusListener[] = [],
  ) {}

  async create(companyId: string, input: AgentInput & { name: string; email: string }): Promise<Agent> {
    const agent = await this.uow.transaction(async (repos) => {
      // The company row serialises creations: the limit and the email check see each other.
      if (!(await repos.companies.findByIdForUpdate(companyId))) throw new NotFoundError('Company');
      assertBelowCompanyLimit(await repos.agents.count(companyId), MAX_AGENTS, 'agents');
      const created = createAgent(this.ids.newId(), companyId, this.clock.now(), input);
      await this.checkTeams(repos, companyId, created.teamIds);
      await this.lockTeams(repos, created.teamIds);
      const existing = await repos.agents.insertUnique(created);
      if (existing) throw duplicate(existing);
      return created;
    });
    if (isAssignable(agent) && agent.teamIds.length > 0) await this.tell(agent);
    return agent;
  }

  async get(companyId: string, id: string): Promise<Agent> {
    const agent = await this.repos.agents.findById(companyId, id);
    if (!agent) throw new NotFoundError('Agent');
    return agent;
  }

  /** A page of agents with their open tickets. */
  async list(companyId: string, filters: AgentFilters, page: PageRequest): Promise<Page<AgentWithLoad>> {
    const agents = await this.repos.agents.list(companyId, filters, page);
    return { ...agents, items: await this.withOpenTickets(companyId, agents.items) };
  }

  /** The agents with the number of their non-closed tickets. */
  async withOpenTickets(companyId: string, agents: readonly Agent[]): Promise<AgentWithLoad[]> {
    const counts = await this.repos.agents.openTicketCounts(
      companyId,
      agents.map((a) => a.id),
    );
    return agents.map((agent) => ({ agent, openTickets: counts.get(agent.id) ?? 0 }));
  }

  /** The operator's PATCH /admin/v1/agents/:id. */
  async update(id: string, input: AgentInput): Promise<Agent> {
    const companyId = await this.repos.agents.companyOf(id);
    if (!companyId) throw new NotFoundError('Agent');
    const { before, after } = await this.uow.transaction(async (repos) => {
      await repos.companies.findByIdForUpdate(companyId);
      const before = await repos.agents.findById(companyId, id);
      if (!before) throw new NotFoundError('Agent');
      const after = updateAgent(before, input, this.clock.now());
      if (input.teamIds !== undefined) await this.checkTeams(repos, companyId, after.teamIds);
      if (input.teamIds !== undefined || availabilityChanged(before, after)) await this.lockTeams(repos, [...before.teamIds, ...after.teamIds]);
      // The memberships are written only when asked for: a team's members may have changed since they were read.
      const clash = await repos.agents.update(after, { teams: input.teamIds !== undefined });
      if (clash) throw duplicate(clash);
      return { before, after };
    });
    if (availabilityChanged(before, after)) await this.tell(after);
    return after;
  }

  /** PATCH /v1/agents/:id/status: `changed: false` when the status was already that one. */
  async setStatus(companyId: string, id: string, status: AgentStatus): Promise<{ agent: Agent; changed: boolean }> {
    const result = await this.uow.transaction(async (repos) => {
      const agent = await repos.agents.findById(companyId, id);
      if (!agent) throw new NotFoundError('Agent');
      if (agent.status === status) return { agent, changed: false };
      const next = updateAgent(agent, { status }, this.clock.now());
      await this.lockTeams(repos, agent.teamIds);
      // Only the status, and only if it is still another one: of concurrent equal changes one reports changed, and
      // the name or memberships read above are never written back over a concurrent edit.
      if (!(await repos.agents.setStatus(companyId, id, status, next.updatedAt))) return { agent: { ...agent, status }, changed: false };
      return { agent: next, changed: true };
    });
    if (result.changed) await this.tell(result.agent);
    return result;
  }

  private async checkTeams(repos: Repositories<Areas>, companyId: string, teamIds: readonly string[]): Promise<void> {
    for (const teamId of teamIds) {
      if (!(await repos.teams.findByIdInCompany(companyId, teamId))) {
        throw new ValidationError(`Team ${teamId} does not belong to this company`, { field: 'team_ids', team_id: teamId });
      }
    }
  }

  /**
   * Locks the rows of the teams whose members this write changes or makes (un)assignable, in id order, as a team's own
   * edit and auto-assignment do first. A team replacing its members at the same time then finishes before (or starts
   * after) this write, instead of the two waiting for each other's membership rows (a deadlock, a 500); and an
   * auto-assignment, which reads the members under its team's lock, sees the agent as this write leaves them.
   */
  private async lockTeams(repos: Repositories<Areas>, teamIds: readonly string[]): Promise<void> {
    for (const teamId of [...new Set(teamIds)].sort()) await repos.teams.lockForAssignment(teamId);
  }

  private async tell(agent: Agent): Promise<void> {
    for (const listener of this.listeners) await listener.onAgentChanged(agent.companyId, agent.id);
  }
}
