import { isAssignable, type Agent, type AgentRepositories, type AgentStatusListener } from '../agents/index.js';
import type { TeamRepositories } from '../teams/index.js';
import type { Clock } from '../shared/clock.js';
import { systemActor, type EventActor } from '../shared/domain-event.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import type { AssignedBy, Ticket } from './ticket.js';
import type { TicketRepositories } from './ticket-repository.js';
import { commitTicket, type TicketWriteResult } from './ticket-writes.js';

/** The repositories auto-assignment uses. */
export type AssignmentRepositories = TicketRepositories & AgentRepositories & TeamRepositories;

/** How many queued tickets one agent change looks at per team (the rest wait for the next change or close). */
const QUEUE_SCAN = 100;

const lastAssigned = (agent: Agent) => agent.lastAssignedAt?.getTime() ?? Number.NEGATIVE_INFINITY;

/**
 * Team auto-assignment (conversations.md §3): an open ticket with a team and no agent, whose team
 * has `auto_assign`, goes — under a lock on the team row, so that concurrent assignments take turns —
 * to the available active member with the fewest tickets that are not closed, below the team's
 * `max_open_per_agent` (ties: least recently assigned, then id). Nobody free: it stays queued. An agent's status,
 * deactivation and memberships change under the locks of their teams too (`ManageAgents`), so the members read here
 * are as those changes left them.
 * Call with the ticket's row already locked (ticket, then team: one lock order everywhere).
 */
export async function autoAssign(
  repos: Repositories<AssignmentRepositories>,
  ticket: Ticket,
  at: Date,
  ids: IdGenerator,
  actor: EventActor = systemActor,
  by: AssignedBy = 'auto',
): Promise<TicketWriteResult> {
  const unchanged: TicketWriteResult = { ticket, changed: false, events: [] };
  if (ticket.status !== 'open' || ticket.agentId !== null || ticket.teamId === null) return unchanged;
  const team = await repos.teams.lockForAssignment(ticket.teamId);
  if (!team || !team.autoAssign || team.companyId !== ticket.companyId) return unchanged;
  const members = (await repos.agents.listForTeam(team.id)).filter(isAssignable);
  if (members.length === 0) return unchanged;
  const counts = await repos.tickets.openCountsByAgent(members.map((m) => m.id));
  const load = (agent: Agent) => counts[agent.id] ?? 0;
  const pick = members
    .filter((m) => load(m) < team.maxOpenPerAgent)
    .sort((a, b) => load(a) - load(b) || lastAssigned(a) - lastAssigned(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))[0];
  if (!pick) return unchanged;
  const result = await commitTicket(repos, ticket, { type: 'assign', at, agentId: pick.id, by }, ids, actor);
  if (result.changed) await repos.agents.touchAssigned(pick.id, at);
  return result;
}

/**
 * The tickets area's {@link AgentStatusListener}: an agent who became available (or closed a
 * ticket) gets their teams' oldest queued tickets through {@link autoAssign}; a deactivated agent's
 * tickets that are not closed go back to the queue (and to another member when the team auto-assigns).
 * Each ticket is its own transaction (ticket row, then team row).
 */
export class TicketAssignmentOnAgentChange implements AgentStatusListener {
  constructor(
    private readonly uow: UnitOfWork<AssignmentRepositories>,
    private readonly repos: Repositories<AssignmentRepositories>,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async onAgentChanged(companyId: string, agentId: string): Promise<void> {
    const agent = await this.repos.agents.findById(companyId, agentId);
    if (!agent) return;
    if (!agent.active) {
      for (const held of await this.repos.tickets.listActiveOfAgent(companyId, agentId)) {
        await this.uow.transaction(async (repos) => {
          const ticket = await repos.tickets.lockById(companyId, held.id);
          if (!ticket || ticket.agentId !== agentId || ticket.status === 'closed') return;
          const at = this.clock.now();
          const back = await commitTicket(repos, ticket, { type: 'assign', at, agentId: null, by: 'auto' }, this.ids, systemActor);
          await autoAssign(repos, back.ticket, at, this.ids);
        });
      }
      return;
    }
    if (!isAssignable(agent)) return;
    for (const teamId of agent.teamIds) await this.fillFromQueue(companyId, teamId);
  }

  /** Offers the team's queued tickets, oldest first, until nobody in the team can take one. */
  async fillFromQueue(companyId: string, teamId: string): Promise<number> {
    const queued = await this.repos.tickets.queue(companyId, { teamId }, null, QUEUE_SCAN);
    let assigned = 0;
    for (const candidate of queued.items) {
      const taken = await this.uow.transaction(async (repos) => {
        const ticket = await repos.tickets.lockById(companyId, candidate.id);
        if (!ticket) return false;
        return (await autoAssign(repos, ticket, this.clock.now(), this.ids)).changed;
      });
      if (!taken) break;
      assigned += 1;
    }
    return assigned;
  }
}
