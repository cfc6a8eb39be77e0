import type { Agent, AgentFilters, AgentRepository, AgentStatus, TeamMember } from '../index.js';
import type { PageRequest } from '../../shared/pagination.js';
import { paginate, type InMemoryStore } from '../../shared/testing/in-memory-store.js';
import type { AgentRepositories } from '../agent-repositories.js';

type Membership = { teamId: string; agentId: string; companyId: string; createdAt: Date };
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
// Code-point order of the lowercased name, as PostgreSQL's `lower(name) COLLATE "C"`.
const byName = (a: Agent, b: Agent) => cmp(a.name.toLowerCase(), b.name.toLowerCase()) || cmp(a.id, b.id);

export class InMemoryAgentRepository implements AgentRepository {
  constructor(private readonly store: InMemoryStore) {}
  private get agents() {
    return this.store.table('agents', () => new Map<string, Omit<Agent, 'teamIds'>>());
  }
  private get members() {
    return this.store.table('teamMembers', () => [] as Membership[]);
  }
  private withTeams(agent: Omit<Agent, 'teamIds'>): Agent {
    const teamIds = this.members
      .filter((m) => m.agentId === agent.id)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.teamId < b.teamId ? -1 : 1))
      .map((m) => m.teamId);
    return structuredClone({ ...agent, teamIds });
  }
  private emailHolder(companyId: string, email: string) {
    return [...this.agents.values()].find((a) => a.companyId === companyId && a.email.toLowerCase() === email.toLowerCase());
  }
  private setMemberships(agent: Agent) {
    const kept = this.members.filter((m) => m.agentId !== agent.id || agent.teamIds.includes(m.teamId));
    for (const teamId of agent.teamIds) {
      if (!kept.some((m) => m.agentId === agent.id && m.teamId === teamId)) kept.push({ teamId, agentId: agent.id, companyId: agent.companyId, createdAt: agent.updatedAt });
    }
    this.store.extra.set('teamMembers', kept);
  }
  async insertUnique(agent: Agent) {
    const existing = this.emailHolder(agent.companyId, agent.email);
    if (existing) return this.withTeams(existing);
    const { teamIds: _teams, ...row } = structuredClone(agent);
    this.agents.set(agent.id, row);
    this.setMemberships(agent);
    return null;
  }
  async update(agent: Agent, { teams = true }: { teams?: boolean } = {}) {
    const existing = this.emailHolder(agent.companyId, agent.email);
    if (existing && existing.id !== agent.id) return this.withTeams(existing);
    const stored = this.agents.get(agent.id);
    if (!stored) return null;
    this.agents.set(agent.id, { ...stored, name: agent.name, email: agent.email, status: agent.status, active: agent.active, updatedAt: agent.updatedAt });
    if (teams) this.setMemberships(agent);
    return null;
  }
  async setStatus(companyId: string, id: string, status: AgentStatus, at: Date) {
    const stored = this.agents.get(id);
    if (!stored || stored.companyId !== companyId || stored.status === status) return false;
    this.agents.set(id, { ...stored, status, updatedAt: at });
    return true;
  }
  async findById(companyId: string, id: string) {
    const agent = this.agents.get(id);
    return agent && agent.companyId === companyId ? this.withTeams(agent) : null;
  }
  async findByIdForUpdate(companyId: string, id: string) {
    return this.findById(companyId, id);
  }
  async companyOf(id: string) {
    return this.agents.get(id)?.companyId ?? null;
  }
  async findManyByIds(companyId: string, ids: readonly string[]) {
    const wanted = new Set(ids);
    return [...this.agents.values()].filter((a) => a.companyId === companyId && wanted.has(a.id)).map((a) => this.withTeams(a));
  }
  async list(companyId: string, filters: AgentFilters, page: PageRequest) {
    const all = [...this.agents.values()]
      .filter((a) => a.companyId === companyId)
      .map((a) => this.withTeams(a))
      .filter((a) => (filters.status === undefined || a.status === filters.status) && (filters.active === undefined || a.active === filters.active))
      .filter((a) => filters.teamId === undefined || a.teamIds.includes(filters.teamId))
      .sort(byName);
    return paginate(all, page);
  }
  async count(companyId: string) {
    return [...this.agents.values()].filter((a) => a.companyId === companyId).length;
  }
  async listForTeam(teamId: string) {
    const ids = new Set(this.members.filter((m) => m.teamId === teamId).map((m) => m.agentId));
    return [...this.agents.values()].filter((a) => ids.has(a.id)).map((a) => this.withTeams(a)).sort(byName);
  }
  async membersOfTeams(teamIds: readonly string[]) {
    const out: TeamMember[] = [];
    for (const teamId of teamIds) {
      for (const agent of await this.listForTeam(teamId)) out.push({ teamId, agentId: agent.id, name: agent.name, status: agent.status, active: agent.active });
    }
    return out;
  }
  async setTeamMembers(companyId: string, teamId: string, agentIds: readonly string[], now: Date) {
    const wanted = new Set(agentIds);
    const kept = this.members.filter((m) => m.teamId !== teamId || wanted.has(m.agentId));
    for (const agentId of wanted) {
      if (!kept.some((m) => m.teamId === teamId && m.agentId === agentId)) kept.push({ teamId, agentId, companyId, createdAt: now });
    }
    this.store.extra.set('teamMembers', kept);
  }
  async touchAssigned(agentId: string, at: Date) {
    const agent = this.agents.get(agentId);
    if (agent) this.agents.set(agentId, { ...agent, lastAssignedAt: at });
  }
  async openTicketCounts(companyId: string, agentIds: readonly string[]) {
    // The tickets area's fake keeps its tickets in the store's `tickets` table (a Map by id).
    const tickets = this.store.extra.get('tickets') as Map<string, { companyId: string; agentId: string | null; status: string }> | undefined;
    const wanted = new Set(agentIds);
    const counts = new Map<string, number>();
    for (const ticket of tickets?.values() ?? []) {
      if (ticket.companyId !== companyId || ticket.status === 'closed' || !ticket.agentId || !wanted.has(ticket.agentId)) continue;
      counts.set(ticket.agentId, (counts.get(ticket.agentId) ?? 0) + 1);
    }
    return counts;
  }
}

/** The agents area's fakes over one store. */
export function inMemoryAgentRepositories(store: InMemoryStore): AgentRepositories {
  return { agents: new InMemoryAgentRepository(store) };
}
