import type { AgentRepositories } from '../agents/index.js';
import { IdempotentRequests, type CampaignRepositories, type IdempotencyInput } from '../campaigns/index.js';
import type { Contact, ContactRepositories } from '../contacts/index.js';
import type { MessageRepositories } from '../messages/index.js';
import { normalizePhone, phoneMatchKey } from '../phone/index.js';
import type { SetorRepositories } from '../setores/index.js';
import type { TeamRepositories } from '../teams/index.js';
import type { Clock } from '../shared/clock.js';
import { transition } from '../shared/decider.js';
import { NotFoundError, ValidationError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/id-generator.js';
import { isUuid } from '../shared/ids.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import { REOPEN_BY_PATCH_MS, ticketDecider, type TicketPriority } from './ticket.js';
import { autoAssign } from './ticket-assignment.js';
import { NoConversationError, TicketActiveError } from './ticket-errors.js';
import { ticketOutbox } from './ticket-events.js';
import type { TicketRepositories } from './ticket-repository.js';
import { commitTicket, resolveTicketActor } from './ticket-writes.js';

type Areas = TicketRepositories & AgentRepositories & TeamRepositories & ContactRepositories & MessageRepositories & SetorRepositories & CampaignRepositories;

/** POST /v1/tickets. */
export interface OpenTicketInput {
  /** The contact: `clientId`, or `phone` (E.164 or national, ninth-digit aware). */
  clientId?: string;
  phone?: string;
  /** Default: the setor of the contact's most recently active conversation. */
  setorId?: string;
  priority?: TicketPriority | null;
  agentId?: string | null;
  teamId?: string | null;
  /** Reopen the contact's ticket closed within 7 days instead of opening a new one. */
  reopen?: boolean;
  actorUserId?: string | null;
}

/** The ticket opened (201) or reopened (200). */
export interface OpenTicketOutcome {
  ticketId: string;
  reopened: boolean;
  replay: boolean;
}

/**
 * Opens a ticket by API (conversations.md §2): `open`, source `api`, in an existing conversation of
 * the contact (none: 422 NO_CONVERSATION — a first-contact send opens one). Another active ticket
 * of the setor and contact: 409 TICKET_ACTIVE `{ ticket_id }` (the database's unique index decides
 * a race). `reopen: true` reopens the contact's latest ticket closed within 7 days (200
 * `reopened: true`) and opens a new one when there is none. `conversation.created`; a team-only
 * assignment auto-assigns. With an `Idempotency-Key`, a repeat answers the first outcome.
 */
export class OpenTicket {
  constructor(
    private readonly uow: UnitOfWork<Areas>,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(companyId: string, input: OpenTicketInput, idempotency?: IdempotencyInput): Promise<OpenTicketOutcome> {
    if (!input.clientId && !input.phone) throw new ValidationError('client_id or phone is required', { field: 'client_id' });
    const outcome = await new IdempotentRequests<Areas>(this.uow, this.clock).runWithOptionalKey(companyId, idempotency, async (repos) => {
      const opened = await this.open(repos, companyId, input);
      return { status: opened.reopened ? 200 : 201, body: opened };
    });
    return { ...(outcome.body as { ticketId: string; reopened: boolean }), replay: outcome.replay };
  }

  private async contactOf(repos: Repositories<Areas>, companyId: string, input: OpenTicketInput): Promise<Contact> {
    if (input.clientId) {
      const contact = isUuid(input.clientId) ? await repos.contacts.findById(companyId, input.clientId.toLowerCase()) : null;
      if (!contact) throw new NotFoundError('Contact', { client_id: input.clientId });
      return contact;
    }
    const contact = await repos.contacts.findByPhone(companyId, normalizePhone(input.phone));
    // A number the company never talked to has no conversation to open a ticket in.
    if (!contact) throw new NoConversationError();
    return contact;
  }

  private async open(repos: Repositories<Areas>, companyId: string, input: OpenTicketInput): Promise<{ ticketId: string; reopened: boolean }> {
    const actor = await resolveTicketActor(repos, companyId, input.actorUserId);
    const contact = await this.contactOf(repos, companyId, input);
    let conversation: { id: string; setorId: string } | null;
    if (input.setorId) {
      const setor = isUuid(input.setorId) ? await repos.setores.findByIdInCompany(companyId, input.setorId.toLowerCase()) : null;
      if (!setor) throw new NotFoundError('Setor', { setor_id: input.setorId });
      conversation = await repos.conversations.findBySetorAndContact(setor.id, contact.id);
    } else {
      conversation = await repos.tickets.latestConversationOf(companyId, contact.id);
    }
    if (!conversation) throw new NoConversationError();
    const agentId = input.agentId ? input.agentId.toLowerCase() : null;
    const teamId = input.teamId ? input.teamId.toLowerCase() : null;
    if (agentId) {
      const agent = isUuid(agentId) ? await repos.agents.findById(companyId, agentId) : null;
      if (!agent || !agent.active) throw new NotFoundError('Agent', { agent_id: input.agentId });
    }
    if (teamId && !(isUuid(teamId) && (await repos.teams.findByIdInCompany(companyId, teamId)))) throw new NotFoundError('Team', { team_id: input.teamId });

    // The inbound path takes the same lock: an API open and an inbound message never race.
    await repos.tickets.lockContactThread(conversation.setorId, phoneMatchKey(contact.phone));
    const active = await repos.tickets.findActive(conversation.setorId, contact.id);
    if (active) throw new TicketActiveError(active.id);
    const at = this.clock.now();

    if (input.reopen) {
      const closed = await repos.tickets.findReopenable(conversation.setorId, contact.id, new Date(at.getTime() - REOPEN_BY_PATCH_MS));
      const locked = closed ? await repos.tickets.lockById(companyId, closed.id) : null;
      if (locked && locked.status === 'closed') {
        let { ticket } = await commitTicket(repos, locked, { type: 'changeStatus', at, to: 'open', reason: 'reopened' }, this.ids, actor);
        if (input.priority !== undefined) ticket = (await commitTicket(repos, ticket, { type: 'setPriority', at, priority: input.priority }, this.ids, actor)).ticket;
        if (input.agentId !== undefined || input.teamId !== undefined) {
          const change = { agentId: input.agentId === undefined ? undefined : agentId, teamId: input.teamId === undefined ? undefined : teamId };
          ticket = (await commitTicket(repos, ticket, { type: 'assign', at, ...change, by: 'api' }, this.ids, actor)).ticket;
        }
        await autoAssign(repos, ticket, at, this.ids, actor);
        return { ticketId: ticket.id, reopened: true };
      }
    }

    const number = await repos.tickets.nextNumber(companyId);
    const { state, events } = transition(ticketDecider, null, {
      type: 'open',
      at,
      ticket: { id: this.ids.newId(), companyId, number, status: 'open', priority: input.priority ?? null, setorId: conversation.setorId, contactId: contact.id, conversationId: conversation.id, agentId, teamId, source: 'api' },
    });
    const ticket = state!;
    if (!(await repos.tickets.insert(ticket))) {
      const winner = await repos.tickets.findActive(conversation.setorId, contact.id);
      throw new TicketActiveError(winner?.id ?? null);
    }
    await repos.events.record(ticketOutbox(ticket, events, this.ids, actor));
    if (agentId) await repos.agents.touchAssigned(agentId, at);
    await autoAssign(repos, ticket, at, this.ids, actor);
    return { ticketId: ticket.id, reopened: false };
  }
}
