import type { Page, PageRequest } from '../shared/pagination.js';
import type { Agent, AgentStatus } from './agent.js';

/** Filters of GET /v1/agents and GET /admin/v1/companies/:id/agents. */
export interface AgentFilters {
  teamId?: string;
  status?: AgentStatus;
  /** Omitted: active and inactive. */
  active?: boolean;
}

/** A team member as GET /v1/teams shows it. */
export interface TeamMember {
  teamId: string;
  agentId: string;
  name: string;
  status: AgentStatus;
  active: boolean;
}

/** Stores agents and their team memberships. Reads by company: another company's agent reads as missing. */
export interface AgentRepository {
  /** Inserts the agent with its memberships unless an agent of the company has the email ignoring case; answers that agent then (null when inserted). */
  insertUnique(agent: Agent): Promise<Agent | null>;
  /**
   * Writes name, email, status, active and `updatedAt`, and the memberships (replace-all) unless `teams: false` (a
   * change that did not touch them must not write back the list it read: a team's members may have changed since);
   * answers the agent holding the email when it is another one (nothing written then).
   */
  update(agent: Agent, options?: { teams?: boolean }): Promise<Agent | null>;
  /**
   * Sets the status (and `updatedAt`) only when it is another one, in one statement, so that of concurrent changes to
   * one status exactly one reports it; true when it changed, false when it already was that status or no such agent.
   */
  setStatus(companyId: string, id: string, status: AgentStatus, at: Date): Promise<boolean>;
  findById(companyId: string, id: string): Promise<Agent | null>;
  /**
   * As findById, the row locked until the transaction ends (the assignment's read: a ticket given to the agent is
   * committed before a concurrent deactivation, which then takes it back, or waits for it and sees the agent inactive;
   * assignments to one agent, which then record it as last assigned, go one after the other).
   */
  findByIdForUpdate(companyId: string, id: string): Promise<Agent | null>;
  /** The agent's company whatever it is (the operator's routes by id); null when missing. */
  companyOf(id: string): Promise<string | null>;
  /** The company's agents among `ids`; unknown or other-company ids are left out. */
  findManyByIds(companyId: string, ids: readonly string[]): Promise<Agent[]>;
  /** A page of the company's agents by name then id. */
  list(companyId: string, filters: AgentFilters, page: PageRequest): Promise<Page<Agent>>;
  count(companyId: string): Promise<number>;
  /** The team's members (active or not), by name then id. */
  listForTeam(teamId: string): Promise<Agent[]>;
  /** Members of the teams, by team then name. */
  membersOfTeams(teamIds: readonly string[]): Promise<TeamMember[]>;
  /** Replaces the team's members by `agentIds` (their other memberships stay). */
  setTeamMembers(companyId: string, teamId: string, agentIds: readonly string[], now: Date): Promise<void>;
  /** Records that the agent was given a ticket (ties in auto-assignment). */
  touchAssigned(agentId: string, at: Date): Promise<void>;
  /** Non-closed tickets per agent; agents without any are left out (0). */
  openTicketCounts(companyId: string, agentIds: readonly string[]): Promise<Map<string, number>>;
}
export const AgentRepository = Symbol.for('carteiro.AgentRepository');
