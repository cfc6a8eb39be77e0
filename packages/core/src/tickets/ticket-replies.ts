import { ticketMessage } from './ticket-message.js';
import type { AgentRepositories } from '../agents/index.js';
import type { KeyMode } from '../api-keys/index.js';
import { IdempotentRequests, type CampaignRepositories, type IdempotencyInput } from '../campaigns/index.js';
import type { ContactRepositories } from '../contacts/index.js';
import { standardContent, type StandardContentInput, type MessageContent, type MessageRecord, type MessageRepositories, type MessageThreads, type SendMessage, type ThreadAuthor } from '../messages/index.js';
import { renderQuickReply, type QuickReplyRepositories } from '../quick-replies/index.js';
import type { Clock } from '../shared/clock.js';
import { transition } from '../shared/decider.js';
import { DomainError, NotFoundError, ValidationError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import { ticketDecider, type Ticket, type TicketLastMessage } from './ticket.js';
import { TicketClosedError } from './ticket-errors.js';
import type { TicketRepositories } from './ticket-repository.js';
import { resolveTicketActor } from './ticket-writes.js';

/** The first characters of a message as ticket lists show it. */
export function messagePreview(content: MessageContent): string | null {
  switch (content.type) {
    case 'text':
      return content.text.slice(0, 100);
    case 'media':
      return (content.text?.trim() ? content.text : `[${content.media.mediaType}]`).slice(0, 100);
    case 'template':
      return `[template ${content.template.name}]`;
    case 'interactive':
      return content.interactive.bodyText.slice(0, 100);
    case 'poll':
      return content.poll.name.slice(0, 100);
    case 'event':
      return content.event.name.slice(0, 100);
  }
}

/** The ticket's `lastMessage` for a message of its timeline. */
export function lastMessageOf(message: MessageRecord, at: Date): TicketLastMessage {
  return { id: message.id, direction: message.direction ?? 'outbound', type: message.type ?? 'message', preview: messagePreview(message.content), at };
}

/**
 * The tickets sends join (the messages area's `MessageThreads`): a reply joins its ticket (locked;
 * a closed one refuses with 409 TICKET_CLOSED and the send's transaction, charge included, rolls
 * back); any other single send (`/v1/messages*`) joins the box and contact's active ticket. A sent
 * message of a ticket is a public reply (the decider's `publicReplySent`: the ticket stops waiting,
 * its first response is recorded); its status does not change. Campaigns never join tickets.
 */
export class TicketThreads implements MessageThreads {
  async join(repos: Repositories, input: { companyId: string; setorId: string; contactId: string; ticketId: string | null; at: Date }): Promise<string | null> {
    // Production and fake repository bags hold every area: the messages area cannot name tickets in its type.
    const { tickets } = repos as Repositories<TicketRepositories>;
    if (input.ticketId) {
      const ticket = await tickets.lockById(input.companyId, input.ticketId);
      if (!ticket) throw new NotFoundError('Ticket');
      if (ticket.status === 'closed') throw new TicketClosedError();
      return ticket.id;
    }
    return (await tickets.findActive(input.setorId, input.contactId))?.id ?? null;
  }

  async sent(repos: Repositories, message: MessageRecord, at: Date): Promise<void> {
    const { tickets } = repos as Repositories<TicketRepositories>;
    if (!message.ticketId) return;
    const ticket = await tickets.lockById(message.companyId, message.ticketId);
    // Closed while the message was on its way: the message stays in its timeline, the ticket as it is.
    if (!ticket || ticket.status === 'closed') return;
    const { state, events } = transition(ticketDecider, ticket, { type: 'publicReplySent', at, message: lastMessageOf(message, at) });
    if (events.length > 0 && state) await tickets.save({ ...state, version: ticket.version + 1 }, ticket.version);
  }
}

/** The content fields of a reply (`message` of POST /v1/tickets/:id/messages): POST /v1/messages's. */
export type ReplyContentInput = StandardContentInput;

/** POST /v1/tickets/:id/messages. */
export interface ReplyCommand {
  companyId: string;
  keyMode: KeyMode;
  ticketId: string;
  message: ReplyContentInput;
  /** A note: stored in the timeline, never sent or charged; allowed on a closed ticket. */
  private?: boolean;
  /** Fills text, media and placeholders; with `message.text`: 400. */
  quickReplyId?: string | null;
  /** `X-Actor-User-Id`: the author (an agent of the company; unknown: 400). */
  actorUserId?: string | null;
}

/** What a reply answers: the timeline item. */
export interface ReplyOutcome {
  message: MessageRecord;
}

type ReplyRepos = TicketRepositories & MessageRepositories & AgentRepositories & QuickReplyRepositories & ContactRepositories & CampaignRepositories;

/**
 * POST /v1/tickets/:id/messages (conversations.md §2). A note (`private`) is written to the timeline
 * (type `note`, never sent or charged, allowed when closed). A public reply goes through the single
 * send path (`SendMessage`) on the ticket's box to its contact, so it answers as POST /v1/messages
 * does: 409 TICKET_CLOSED; 422 WINDOW_EXPIRED on a closed official window before anything is
 * charged; 402; 404 without a connected instance; 502 or 422 after a refunded failure. The ticket's
 * status does not change; it stops waiting. With an `Idempotency-Key` a repeated request answers the
 * first one's message again (as campaigns do).
 */
export class ReplyToTicket {
  constructor(
    private readonly uow: UnitOfWork<ReplyRepos>,
    private readonly sender: Pick<SendMessage, 'send'>,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async execute(command: ReplyCommand, idempotency?: IdempotencyInput): Promise<{ outcome: ReplyOutcome; replay: boolean }> {
    if (!idempotency) return { outcome: await this.reply(command), replay: false };
    let fresh: ReplyOutcome | null = null;
    const result = await new IdempotentRequests(this.uow, this.clock).runAcross(command.companyId, idempotency, async () => {
      fresh = await this.reply(command);
      return { status: 201, body: { messageId: fresh.message.id } };
    });
    if (fresh) return { outcome: fresh, replay: false };
    // A replay answers the message the first request wrote, as it is now.
    const messageId = (result.body as { messageId?: string } | null)?.messageId;
    const message = messageId ? await this.uow.transaction((repos) => repos.messages.findById(command.companyId, messageId)) : null;
    if (!message) throw new NotFoundError('Message', { message_id: messageId ?? null });
    return { outcome: { message }, replay: true };
  }

  private async reply(command: ReplyCommand): Promise<ReplyOutcome> {
    const loaded = await this.uow.transaction(async (repos) => {
      const ticket = await repos.tickets.findById(command.companyId, command.ticketId);
      if (!ticket) throw new NotFoundError('Ticket');
      const author = await this.author(repos, command);
      const content = await this.content(repos, ticket, command);
      return { ticket, author, content };
    });
    const { ticket, author, content } = loaded;
    if (command.private) return { message: await this.note(ticket, author, content) };
    if (ticket.status === 'closed') throw new TicketClosedError();
    const outcome = await this.sender.send({
      companyId: command.companyId,
      keyMode: command.keyMode,
      clientId: ticket.contactId,
      selection: { setorId: ticket.setorId },
      content,
      thread: { ticketId: ticket.id, author },
      actorUserId: author.type === 'agent' ? author.id : null,
    });
    return { message: outcome.message };
  }

  private async author(repos: Repositories<ReplyRepos>, command: ReplyCommand): Promise<ThreadAuthor> {
    const actor = await resolveTicketActor(repos, command.companyId, command.actorUserId || null);
    return actor.user_id ? { type: 'agent', id: actor.user_id } : { type: 'api', id: null };
  }

  /** The message's content: as POST /v1/messages's, or the quick reply's with its placeholders filled. */
  private async content(repos: Repositories<ReplyRepos>, ticket: Ticket, command: ReplyCommand): Promise<MessageContent> {
    const m = command.message;
    if (!command.quickReplyId) return standardContent(m, 'message.');
    if (m.text != null && m.text !== '') {
      throw new ValidationError('quick_reply_id fills the text: send one or the other', { field: 'message.text' });
    }
    const reply = await repos.quickReplies.findById(command.companyId, command.quickReplyId);
    if (!reply || (reply.setorId !== null && reply.setorId !== ticket.setorId)) throw new NotFoundError('QuickReply', { quick_reply_id: command.quickReplyId });
    const contact = await repos.contacts.findById(ticket.companyId, ticket.contactId);
    const agentId = command.actorUserId || ticket.agentId;
    const agent = agentId ? await repos.agents.findById(ticket.companyId, agentId) : null;
    const rendered = renderQuickReply(reply, { contactName: contact?.name ?? null, protocol: ticket.number, agentName: agent?.name ?? null });
    // A reply's own media goes with a quick reply that has none; with one of its own, either would be dropped.
    if (rendered.mediaUrl && m.mediaUrl) {
      throw new ValidationError('the quick reply brings its own media: send quick_reply_id or message.media_url', { field: 'message.media_url' });
    }
    return standardContent({ ...m, text: rendered.text, mediaUrl: rendered.mediaUrl ?? m.mediaUrl, mediaType: rendered.mediaType ?? m.mediaType }, 'message.');
  }

  private note(ticket: Ticket, author: ThreadAuthor, content: MessageContent): Promise<MessageRecord> {
    return this.uow.transaction(async (repos) => {
      const contact = await repos.contacts.findById(ticket.companyId, ticket.contactId);
      const at = this.clock.now();
      // A note is complete when written: never sent, never charged.
      const note = ticketMessage(ticket, { id: this.ids.newId(), phone: contact?.phone ?? '', at, type: 'note', author, content });
      await repos.messages.insert(note);
      return note;
    });
  }
}
