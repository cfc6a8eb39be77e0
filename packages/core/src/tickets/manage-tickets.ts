import { ticketMessage } from './ticket-message.js';
import type { AgentRepositories } from '../agents/index.js';
import type { KeyMode } from '../api-keys/index.js';
import type { ContactRepositories } from '../contacts/index.js';
import type { CrmRepositories } from '../crm/index.js';
import type { MessageRecord, MessageRepositories } from '../messages/index.js';
import type { TagRepositories } from '../tags/index.js';
import type { TeamRepositories } from '../teams/index.js';
import type { Clock } from '../shared/clock.js';
import { transition } from '../shared/decider.js';
import type { EventActor } from '../shared/domain-event.js';
import { NotFoundError, ValidationError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/id-generator.js';
import { isUuid } from '../shared/ids.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import { ticketDecider, type Ticket, type TicketPriority, type TicketStatus } from './ticket.js';
import { autoAssign, type TicketAssignmentOnAgentChange } from './ticket-assignment.js';
import { TicketActiveError } from './ticket-errors.js';
import { TicketQueues } from './ticket-queues.js';
import type { TicketLink, TicketRepositories } from './ticket-repository.js';
import { commitTicket, lockTicket, resolveTicketActor, storeTicket, type TicketWriteContext, type TicketWriteResult } from './ticket-writes.js';

/** The repositories of the ticket writes. */
export type TicketWriteAreas = TicketRepositories & AgentRepositories & TeamRepositories & ContactRepositories & MessageRepositories & TagRepositories & CrmRepositories;

/** What happened to each automatic closing message (`closing` of PATCH status): see the closing area's `ClosingStep`. */
export interface TicketClosingOutcome {
  closingMessage: string;
  ratingRequest: string;
}

/** The closing fields of PATCH /v1/tickets/:id/status. */
export interface TicketClosingOptions {
  sendClosingMessage?: boolean | null;
  requestRating?: boolean | null;
}

/**
 * The closing side effects hook (filled by the closing area, `queueClosingSends`): run inside the
 * transaction that closes the ticket, before it is saved; answers the ticket to save and the
 * answer's `closing`. Without one, closing queues nothing (`none`, `none`).
 */
export type TicketClosingStep = (
  repos: Repositories,
  input: { ticket: Ticket; keyMode: KeyMode; options: TicketClosingOptions; at: Date; ids: IdGenerator },
) => Promise<{ ticket: Ticket; closing: TicketClosingOutcome }>;

/** The answer's `closing` when nothing was queued. */
export const NO_CLOSING: TicketClosingOutcome = Object.freeze({ closingMessage: 'none', ratingRequest: 'none' });

/** PATCH /v1/tickets/:id/status. */
export interface StatusChange {
  status: TicketStatus;
  snoozedUntil?: Date | null;
  closeReason?: string | null;
  closing?: TicketClosingOptions;
  /** The request's key mode (closing messages of test keys go to the simulator, never charged). */
  keyMode?: KeyMode;
}

/** PATCH /v1/tickets/:id/assignee: `undefined` keeps a field, `null` clears it. */
export interface AssigneeChange {
  agentId?: string | null;
  teamId?: string | null;
  claim?: boolean;
}

/** POST /v1/tickets/:id/handoff. */
export interface Handoff {
  summary: string;
  agentId?: string | null;
  teamId?: string | null;
  priority?: TicketPriority | null;
  /** Default true: the contact's assistant is paused (until `pauseUntil`, else switched off). */
  pauseAssistant?: boolean;
  pauseUntil?: Date | null;
}

/** A pause of the assistant is at most this long ahead (the contacts area's rule). */
const MAX_ASSISTANT_PAUSE_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * The ticket writes of conversations.md §2: status moves (closing side effects through the
 * {@link TicketClosingStep} hook), assignment (`claim`, auto-assignment), priority, tags, links and
 * handoff. Every write locks the ticket row, honours `If-Match` (412) and `X-Actor-User-Id` (an
 * agent; unknown 400), answers `changed: false` without an event when nothing changes, and records
 * its events in the same transaction.
 */
export class ManageTickets {
  constructor(
    private readonly uow: UnitOfWork<TicketWriteAreas>,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly closingStep: TicketClosingStep | null = null,
    private readonly assignment: Pick<TicketAssignmentOnAgentChange, 'onAgentChanged'> | null = null,
  ) {}

  private async begin(repos: Repositories<TicketWriteAreas>, ctx: TicketWriteContext, ticketId: string): Promise<{ ticket: Ticket; actor: EventActor }> {
    const actor = await resolveTicketActor(repos, ctx.companyId, ctx.actorUserId);
    return { ticket: await lockTicket(repos, ctx.companyId, ticketId, ctx.ifMatch), actor };
  }

  async changeStatus(ctx: TicketWriteContext, ticketId: string, change: StatusChange): Promise<TicketWriteResult & { closing: TicketClosingOutcome | null }> {
    if (change.snoozedUntil && change.status !== 'snoozed') throw new ValidationError('snoozed_until goes only with status snoozed', { field: 'snoozed_until' });
    const result = await this.uow.transaction(async (repos) => {
      const { ticket, actor } = await this.begin(repos, ctx, ticketId);
      const at = this.clock.now();
      if (change.status === 'open' && ticket.status === 'closed') {
        const active = await repos.tickets.findActive(ticket.setorId, ticket.contactId);
        if (active && active.id !== ticket.id) throw new TicketActiveError(active.id);
      }
      const { state, events } = transition(ticketDecider, ticket, {
        type: 'changeStatus',
        at,
        to: change.status,
        snoozedUntil: change.snoozedUntil,
        reason: change.status === 'closed' ? (change.closeReason ?? null) : null,
      });
      if (events.length === 0 || !state) return { ticket, changed: false, events: [], closing: change.status === 'closed' ? NO_CLOSING : null };
      let next = state;
      let closing: TicketClosingOutcome | null = null;
      if (next.status === 'closed') {
        closing = NO_CLOSING;
        if (this.closingStep) {
          const outcome = await this.closingStep(repos, { ticket: next, keyMode: change.keyMode ?? 'live', options: change.closing ?? {}, at, ids: this.ids });
          next = outcome.ticket;
          closing = outcome.closing;
        }
      }
      const stored = await storeTicket(repos, ticket, next, events, this.ids, actor);
      if (stored.ticket.status === 'snoozed' && stored.ticket.snoozedUntil) {
        await repos.jobs.enqueue(TicketQueues.wakeSnoozed, { companyId: ticket.companyId, ticketId: ticket.id }, { startAfter: stored.ticket.snoozedUntil });
      }
      if (stored.ticket.status === 'open') {
        const auto = await autoAssign(repos, stored.ticket, at, this.ids, actor);
        if (auto.changed) return { ticket: auto.ticket, changed: true, events: [...stored.events, ...auto.events], closing };
      }
      return { ...stored, closing };
    });
    // An agent who closed a ticket has room for their teams' queued tickets.
    if (result.changed && result.ticket.status === 'closed' && result.ticket.agentId && this.assignment) {
      await this.assignment.onAgentChanged(ctx.companyId, result.ticket.agentId);
    }
    return result;
  }

  private async checkAssignee(repos: Repositories<TicketWriteAreas>, companyId: string, agentId: string | null | undefined, teamId: string | null | undefined) {
    if (agentId) {
      // Locked: a deactivation running at the same time waits for this assignment and then takes the ticket back, or
      // this waits for it and finds the agent inactive (never a ticket left with an inactive agent).
      const agent = isUuid(agentId) ? await repos.agents.findByIdForUpdate(companyId, agentId.toLowerCase()) : null;
      if (!agent || !agent.active) throw new NotFoundError('Agent', { agent_id: agentId });
    }
    if (teamId) {
      const team = isUuid(teamId) ? await repos.teams.findByIdInCompany(companyId, teamId.toLowerCase()) : null;
      if (!team) throw new NotFoundError('Team', { team_id: teamId });
    }
  }

  async assign(ctx: TicketWriteContext, ticketId: string, change: AssigneeChange): Promise<TicketWriteResult> {
    if (change.claim && !change.agentId) throw new ValidationError('claim needs agent_id', { field: 'agent_id' });
    if (change.agentId === undefined && change.teamId === undefined) throw new ValidationError('agent_id or team_id is required', { field: 'agent_id' });
    return this.uow.transaction(async (repos) => {
      const { ticket, actor } = await this.begin(repos, ctx, ticketId);
      await this.checkAssignee(repos, ctx.companyId, change.agentId, change.teamId);
      const at = this.clock.now();
      const agentId = change.agentId ? change.agentId.toLowerCase() : change.agentId;
      const teamId = change.teamId ? change.teamId.toLowerCase() : change.teamId;
      const result = await commitTicket(repos, ticket, { type: 'assign', at, agentId, teamId, claim: change.claim, by: 'api' }, this.ids, actor);
      if (result.changed && result.ticket.agentId && result.ticket.agentId !== ticket.agentId) await repos.agents.touchAssigned(result.ticket.agentId, at);
      // A team-only assignment: the team's auto-assignment picks the agent.
      if (result.changed && result.ticket.agentId === null && result.ticket.teamId !== null) {
        const auto = await autoAssign(repos, result.ticket, at, this.ids, actor);
        if (auto.changed) return { ticket: auto.ticket, changed: true, events: [...result.events, ...auto.events] };
      }
      return result;
    });
  }

  async setPriority(ctx: TicketWriteContext, ticketId: string, priority: TicketPriority | null): Promise<TicketWriteResult> {
    return this.uow.transaction(async (repos) => {
      const { ticket, actor } = await this.begin(repos, ctx, ticketId);
      return commitTicket(repos, ticket, { type: 'setPriority', at: this.clock.now(), priority }, this.ids, actor);
    });
  }

  private async knownTags(repos: Repositories<TicketWriteAreas>, companyId: string, tagIds: readonly string[]): Promise<string[]> {
    const wanted = [...new Set(tagIds.map((id) => id.toLowerCase()))];
    const found = new Set((await repos.tags.findManyByIds(companyId, wanted.filter(isUuid))).map((t) => t.id));
    const unknown = wanted.filter((id) => !found.has(id));
    if (unknown.length > 0) throw new NotFoundError('Tag', { tag_ids: unknown });
    return wanted;
  }

  /** Tags changed: the ticket's version and `updatedAt` move (sync readers see it), no event. */
  private async touch(repos: Repositories<TicketWriteAreas>, ticket: Ticket, actor: EventActor): Promise<Ticket> {
    const at = this.clock.now();
    return (await storeTicket(repos, ticket, { ...ticket, updatedAt: at }, [], this.ids, actor)).ticket;
  }

  async addTags(ctx: TicketWriteContext, ticketId: string, tagIds: readonly string[]): Promise<{ ticket: Ticket; changed: boolean; added: string[] }> {
    return this.uow.transaction(async (repos) => {
      const { ticket, actor } = await this.begin(repos, ctx, ticketId);
      const wanted = await this.knownTags(repos, ctx.companyId, tagIds);
      const added = await repos.tickets.addTags(ctx.companyId, ticket.id, wanted, this.clock.now());
      if (added.length === 0) return { ticket, changed: false, added };
      const touched = await this.touch(repos, ticket, actor);
      return { ticket: { ...touched, tagIds: [...new Set([...ticket.tagIds, ...added])].sort() }, changed: true, added };
    });
  }

  async removeTags(ctx: TicketWriteContext, ticketId: string, tagIds: readonly string[]): Promise<{ ticket: Ticket; changed: boolean; removed: string[] }> {
    return this.uow.transaction(async (repos) => {
      const { ticket, actor } = await this.begin(repos, ctx, ticketId);
      const wanted = await this.knownTags(repos, ctx.companyId, tagIds);
      const removed = await repos.tickets.removeTags(ticket.id, wanted);
      if (removed.length === 0) return { ticket, changed: false, removed };
      const touched = await this.touch(repos, ticket, actor);
      return { ticket: { ...touched, tagIds: ticket.tagIds.filter((id) => !removed.includes(id)) }, changed: true, removed };
    });
  }

  /** Links a CRM opportunity of the company; `created: false` when it was linked already. */
  async link(ctx: TicketWriteContext, ticketId: string, type: TicketLink['type'], targetId: string): Promise<{ created: boolean; link: TicketLink }> {
    return this.uow.transaction(async (repos) => {
      const { ticket } = await this.begin(repos, ctx, ticketId);
      const opportunity = isUuid(targetId) ? await repos.opportunities.findById(ctx.companyId, targetId.toLowerCase()) : null;
      if (!opportunity) throw new NotFoundError('Opportunity', { id: targetId });
      const link: TicketLink = { type, targetId: opportunity.id, linkedAt: this.clock.now() };
      const created = await repos.tickets.link(ctx.companyId, ticket.id, link);
      const stored = (await repos.tickets.links(ticket.id)).find((l) => l.type === type && l.targetId === opportunity.id) ?? link;
      return { created, link: stored };
    });
  }

  /** Unlinks; 404 when the record was not linked. */
  async unlink(ctx: TicketWriteContext, ticketId: string, type: TicketLink['type'], targetId: string): Promise<void> {
    await this.uow.transaction(async (repos) => {
      const { ticket } = await this.begin(repos, ctx, ticketId);
      if (!(await repos.tickets.unlink(ticket.id, type, targetId.toLowerCase()))) throw new NotFoundError('Link', { type, id: targetId });
    });
  }

  /**
   * Hands the ticket to humans: open, the summary pinned (the ticket's `handoff` and a note in the
   * timeline), assignee and priority as given — a team without agent auto-assigns —, the contact's
   * assistant paused; `conversation.assigned` with `by: handoff` (or without assignee change none).
   * A closed ticket is 409 INVALID_TRANSITION.
   */
  async handoff(ctx: TicketWriteContext, ticketId: string, input: Handoff): Promise<TicketWriteResult> {
    const summary = input.summary.trim();
    if (!summary) throw new ValidationError('summary must not be empty', { field: 'summary' });
    const at = this.clock.now();
    if (input.pauseUntil) {
      const ahead = input.pauseUntil.getTime() - at.getTime();
      if (ahead <= 0 || ahead > MAX_ASSISTANT_PAUSE_MS) throw new ValidationError('pause_until must be in the future and at most 30 days ahead', { field: 'pause_until' });
    }
    return this.uow.transaction(async (repos) => {
      const { ticket, actor } = await this.begin(repos, ctx, ticketId);
      await this.checkAssignee(repos, ctx.companyId, input.agentId, input.teamId);
      const agentId = input.agentId ? input.agentId.toLowerCase() : input.agentId;
      const teamId = input.teamId ? input.teamId.toLowerCase() : input.teamId;
      const result = await commitTicket(repos, ticket, { type: 'handoff', at, summary, agentId, teamId, priority: input.priority }, this.ids, actor);
      const contact = await repos.contacts.findByIdForUpdate(ctx.companyId, ticket.contactId);
      if (contact) {
        await repos.messages.insert(handoffNote(this.ids.newId(), result.ticket, contact.phone, summary, actor, at));
        if (input.pauseAssistant ?? true) {
          const paused = input.pauseUntil ? { ...contact, iaAtiva: true, iaPausedUntil: input.pauseUntil } : { ...contact, iaAtiva: false, iaPausedUntil: null };
          if (paused.iaAtiva !== contact.iaAtiva || paused.iaPausedUntil?.getTime() !== contact.iaPausedUntil?.getTime()) {
            await repos.contacts.update({ ...paused, updatedAt: at });
          }
        }
      }
      if (result.ticket.agentId && result.ticket.agentId !== ticket.agentId) await repos.agents.touchAssigned(result.ticket.agentId, at);
      const auto = await autoAssign(repos, result.ticket, at, this.ids, actor, 'handoff');
      if (auto.changed) {
        // The auto-assignment of a handoff is the handoff's: its event says so.
        return { ticket: auto.ticket, changed: true, events: [...result.events, ...auto.events] };
      }
      return result;
    });
  }
}

/** The handoff summary as a note of the timeline (never sent). */
function handoffNote(id: string, ticket: Ticket, phone: string, summary: string, actor: EventActor, at: Date): MessageRecord {
  return ticketMessage(ticket, {
    id,
    phone,
    at,
    type: 'note',
    author: actor.user_id ? { type: 'agent', id: actor.user_id } : { type: 'api', id: null },
    content: { type: 'text', text: summary },
    activity: { kind: 'handoff', from: null, to: null },
  });
}
