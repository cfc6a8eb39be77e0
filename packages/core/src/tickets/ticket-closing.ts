import { ticketMessage } from './ticket-message.js';
import type { AgentRepositories } from '../agents/index.js';
import type { KeyMode } from '../api-keys/index.js';
import { isConversationWindowOpen, type ChannelRepositories } from '../channel/index.js';
import type { Contact, ContactRepositories } from '../contacts/index.js';
import type { MessageContent, MessageRecord, MessageRepositories } from '../messages/index.js';
import { renderPlaceholders } from '../quick-replies/index.js';
import { DEFAULT_SETOR_INBOX_SETTINGS, type Setor, type SetorRepositories } from '../setores/index.js';
import { transition } from '../shared/decider.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Repositories } from '../shared/unit-of-work.js';
import { RATING_WINDOW_MS, ticketDecider, type Ticket } from './ticket.js';
import { enqueueTicketSend, newTicketSend, TicketSendQueues, type TicketSendKind, type TicketSendRepositories } from './ticket-send.js';
import { activityEntry } from './ticket-timeline.js';

/** What happened to one automatic closing message (`closing { closing_message, rating_request }` of PATCH status). */
export type ClosingStep = 'queued' | 'none' | 'skipped_window' | 'already_requested';

/** The answer's `closing` object. */
export interface ClosingOutcome {
  closingMessage: ClosingStep;
  ratingRequest: ClosingStep;
}

/** The closing fields of PATCH /v1/tickets/:id/status. */
export interface ClosingOptions {
  /** Default true: the box's `closing_message`, when it has one. */
  sendClosingMessage?: boolean | null;
  /** Default: the box's `csat_enabled`. */
  requestRating?: boolean | null;
}

/** The repositories closing side effects use, inside the closing transaction. */
export type ClosingRepositories = TicketSendRepositories & MessageRepositories & ChannelRepositories & ContactRepositories & SetorRepositories & AgentRepositories;

/** The rating options of the request, `csat_1` … `csat_5` (numbered 1-5 on boxes without lists). */
export const CSAT_OPTIONS: readonly { id: string; title: string }[] = [
  { id: 'csat_1', title: 'Péssimo' },
  { id: 'csat_2', title: 'Ruim' },
  { id: 'csat_3', title: 'Regular' },
  { id: 'csat_4', title: 'Bom' },
  { id: 'csat_5', title: 'Excelente' },
];

/** The question when the box has none. */
export const DEFAULT_CSAT_QUESTION = 'Como você avalia o nosso atendimento? Responda com uma nota de 1 a 5.';

/** The rating request: the question as an interactive list (the planner numbers it on QR boxes). */
export function ratingRequestContent(question: string | null): MessageContent {
  return {
    type: 'interactive',
    interactive: {
      type: 'list',
      bodyText: question?.trim() ? question : DEFAULT_CSAT_QUESTION,
      buttonText: 'Avaliar',
      sections: [{ title: 'Nota', rows: CSAT_OPTIONS.map((o) => ({ id: o.id, title: o.title })) }],
    },
  };
}

/** `{{nome}} {{primeiro_nome}} {{protocolo}} {{atendente}}` of a closing message (and a rating thanks), filled as quick replies are. */
export function closingText(template: string, input: { contact: Pick<Contact, 'name'>; ticket: Pick<Ticket, 'number'>; agentName: string | null }): string {
  return renderPlaceholders(template, { contactName: input.contact.name, protocol: input.ticket.number, agentName: input.agentName });
}

/** What the closing transaction hands to {@link queueClosingSends}. */
export interface ClosingInput {
  /** The ticket as the close left it (status closed, not yet saved): the rating request is applied to it. */
  ticket: Ticket;
  /** The key mode of the closing request: test keys' messages reach the simulator and are never charged. */
  keyMode: KeyMode;
  options: ClosingOptions;
  at: Date;
  ids: IdGenerator;
}

/**
 * The closing side effects (conversations.md §3 "Closing"), run inside the transaction that closes
 * the ticket, before it is saved. The box's closing message and the rating request are each
 * written as a pending timeline message, a {@link TicketSend} and its job — committed with the
 * close or not at all; the worker (`DeliverTicketSend`) sends each exactly once and charges it as a
 * reply. On an official box whose 24-hour window is closed neither goes: one activity row says so
 * (`skipped_window`) and the rating becomes `not_sent`. A ticket that already had a rating
 * request answers `already_requested`. The rating request sets the rating `requested` (credited
 * to the ticket's agent and team by the close) and queues its expiry 24 hours later.
 * Returns the ticket to save and the answer's `closing`.
 */
export async function queueClosingSends(repos: Repositories<ClosingRepositories>, input: ClosingInput): Promise<{ ticket: Ticket; closing: ClosingOutcome }> {
  let ticket = input.ticket;
  const { at, ids } = input;
  const setor = await repos.setores.findByIdInCompany(ticket.companyId, ticket.setorId);
  const contact = await repos.contacts.findById(ticket.companyId, ticket.contactId);
  if (!setor || !contact) return { ticket, closing: { closingMessage: 'none', ratingRequest: 'none' } };
  const inbox = setor.inbox ?? DEFAULT_SETOR_INBOX_SETTINGS;
  const wantsClosing = (input.options.sendClosingMessage ?? true) && !!inbox.closingMessage?.trim();
  const wantsRating = input.options.requestRating ?? inbox.csatEnabled;
  const ratingAlready = ticket.rating.status !== 'none' && ticket.rating.status !== 'not_sent';
  const closing: ClosingOutcome = {
    closingMessage: wantsClosing ? 'queued' : 'none',
    ratingRequest: !wantsRating ? 'none' : ratingAlready ? 'already_requested' : 'queued',
  };
  if (closing.closingMessage !== 'queued' && closing.ratingRequest !== 'queued') return { ticket, closing };

  const instance = await repos.channelInstances.findBySetor(setor.id);
  if (setor.channelType === 'official' && !isConversationWindowOpen(await repos.conversationWindows.lastInbound(setor.id, contact.phone), at)) {
    const skipped: string[] = [];
    if (closing.closingMessage === 'queued') {
      closing.closingMessage = 'skipped_window';
      skipped.push('closing_message');
    }
    if (closing.ratingRequest === 'queued') {
      closing.ratingRequest = 'skipped_window';
      skipped.push('rating_request');
      // No decider command says "not sent": the request never left, so the rating is marked as such.
      ticket = { ...ticket, rating: { ...ticket.rating, status: 'not_sent', requestedAt: null } };
    }
    await repos.messages.insert(
      activityEntry(ids.newId(), ticket, contact, at, { kind: 'closing_skipped', from: null, to: 'window_closed' }, `Not sent (the official 24-hour window is closed): ${skipped.join(', ')}`),
    );
    return { ticket, closing };
  }

  const agentName = ticket.agentId ? ((await repos.agents.findById(ticket.companyId, ticket.agentId))?.name ?? null) : null;
  const queue = async (kind: TicketSendKind, content: MessageContent) => {
    const send = newTicketSend({ id: ids.newId(), companyId: ticket.companyId, ticketId: ticket.id, setorId: setor.id, kind, keyMode: input.keyMode }, at);
    await repos.messages.insert(automaticMessage(send.id, ticket, setor, contact, instance?.phoneNumber ?? null, input.keyMode, content, at));
    await repos.ticketSends.insert(send);
    await enqueueTicketSend(repos.jobs, send);
  };
  if (closing.closingMessage === 'queued') {
    await queue('closing_message', { type: 'text', text: closingText(inbox.closingMessage!, { contact, ticket, agentName }) });
  }
  if (closing.ratingRequest === 'queued') {
    ticket = transition(ticketDecider, ticket, { type: 'requestRating', at }).state ?? ticket;
    await queue('rating_request', ratingRequestContent(inbox.csatQuestion));
    await repos.jobs.enqueue(TicketSendQueues.ratingExpiry, { companyId: ticket.companyId, ticketId: ticket.id }, { startAfter: new Date(at.getTime() + RATING_WINDOW_MS) });
  }
  return { ticket, closing };
}

/**
 * Queues the box's `csat_thanks` after a recorded rating reply, inside that transaction (for the
 * inbound rating-reply code): a pending timeline message, a {@link TicketSend} and its job, sent once
 * by the worker like the closing message, in the key mode of the ticket's rating request (default
 * `keyMode`, else live). Nothing when the box has no thanks text. Answers the send id.
 */
export async function queueCsatThanks(
  repos: Repositories<ClosingRepositories>,
  input: { ticket: Ticket; keyMode?: KeyMode; at: Date; ids: IdGenerator },
): Promise<string | null> {
  const { ticket, at, ids } = input;
  const setor = await repos.setores.findByIdInCompany(ticket.companyId, ticket.setorId);
  const contact = await repos.contacts.findById(ticket.companyId, ticket.contactId);
  const thanks = setor ? (setor.inbox ?? DEFAULT_SETOR_INBOX_SETTINGS).csatThanks : null;
  if (!setor || !contact || !thanks?.trim()) return null;
  const instance = await repos.channelInstances.findBySetor(setor.id);
  const agentName = ticket.rating.agentId ? ((await repos.agents.findById(ticket.companyId, ticket.rating.agentId))?.name ?? null) : null;
  // The thanks goes as the rating request went: a test key's request reached the simulator, uncharged.
  const keyMode = input.keyMode ?? (await repos.ticketSends.listByTicket(ticket.companyId, ticket.id)).find((s) => s.kind === 'rating_request')?.keyMode ?? 'live';
  const send = newTicketSend({ id: ids.newId(), companyId: ticket.companyId, ticketId: ticket.id, setorId: setor.id, kind: 'csat_thanks', keyMode }, at);
  const text = closingText(thanks, { contact, ticket, agentName });
  await repos.messages.insert(automaticMessage(send.id, ticket, setor, contact, instance?.phoneNumber ?? null, keyMode, { type: 'text', text }, at));
  await repos.ticketSends.insert(send);
  await enqueueTicketSend(repos.jobs, send);
  return send.id;
}

/** The pending timeline message of an automatic send (its parts are planned when the worker claims it). */
function automaticMessage(id: string, ticket: Ticket, setor: Setor, contact: Contact, senderNumber: string | null, keyMode: KeyMode, content: MessageContent, at: Date): MessageRecord {
  return ticketMessage(
    { ...ticket, setorId: setor.id, contactId: contact.id },
    { id, phone: contact.phone, at, type: 'message', author: { type: 'system', id: null }, content, status: 'pending', keyMode, senderNumber },
  );
}
