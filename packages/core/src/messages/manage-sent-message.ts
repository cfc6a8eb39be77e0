import type { ChannelGateway, MessageOperationResult, SendFailure, SessionTarget } from '../channel/index.js';
import type { ChannelInstance } from '../channel/index.js';
import { disconnectsSender, type SenderFailureInput } from '../channel/index.js';
import { supportsOperation, type SentMessageOperation } from '../channel/index.js';
import { readableFailure } from '../channel/index.js';
import type { Setor } from '../setores/index.js';
import type { Clock } from '../shared/clock.js';
import { DomainError, NotFoundError, ValidationError } from '../shared/errors.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import { EDIT_WINDOW_MS, type MessagePart, type MessageRecord } from './message.js';
import { MAX_TEXT_LENGTH, type MessageContent } from './message-content.js';
import type { ChannelRepositories } from '../channel/index.js';
import type { MessageRepositories } from './message-repositories.js';
import type { SetorRepositories } from '../setores/index.js';

/** Longest reaction accepted (an emoji with modifiers and joiners is several code points). */
export const MAX_REACTION_LENGTH = 16;

/** The part of the channel's sender-failure service an operation needs: `HandleSenderFailure.within`. */
type SenderFailures = { within(repos: Repositories<ChannelRepositories & MessageRepositories & SetorRepositories>, input: SenderFailureInput): Promise<unknown> };

/** A sent message with the setor and instance that sent it. */
interface Loaded {
  message: MessageRecord;
  setor: Setor;
  instance: ChannelInstance | null;
}

const PAST: Record<SentMessageOperation, string> = { edit: 'edited', delete: 'deleted', reaction: 'reacted to' };

/**
 * Edit, soft delete and reaction on a message sent through the API (PATCH, DELETE and
 * POST …/reaction of /v1/messages/:conversa_id, where the id is the `message_id` of the send).
 * Each is checked, then done at the channel through the `ChannelGateway` (the setor and key mode
 * that sent the message, the provider's message id), then kept on the record. The channel call
 * happens outside any transaction, as sends do; the record is read again, locked, when it is
 * written, so a delete that committed meanwhile wins over an edit or a reaction.
 */
export class ManageSentMessage {
  constructor(
    private readonly uow: UnitOfWork<ChannelRepositories & MessageRepositories & SetorRepositories>,
    private readonly gateway: ChannelGateway,
    private readonly senderFailures: SenderFailures,
    private readonly clock: Clock,
  ) {}

  /** New text of a text message, or new caption of a captioned media, within about 15 minutes of sending. QR setores only. */
  async edit(companyId: string, messageId: string, text: unknown): Promise<MessageRecord> {
    if (typeof text !== 'string' || text.trim() === '') throw new ValidationError('text is required', { field: 'text' });
    if (text.length > MAX_TEXT_LENGTH) throw new ValidationError(`text is longer than ${MAX_TEXT_LENGTH} characters`, { field: 'text', max: MAX_TEXT_LENGTH });
    const loaded = await this.load(companyId, messageId);
    const { message } = loaded;
    requireLive(message);
    this.requireOperation(loaded, 'edit');
    const sentAt = message.sentAt ?? message.createdAt;
    if (this.clock.now().getTime() - sentAt.getTime() > EDIT_WINDOW_MS) {
      throw new DomainError('UNPROCESSABLE', 'The edit window of this message has passed (about 15 minutes after sending)', {
        sent_at: sentAt.toISOString(),
        edit_window_seconds: EDIT_WINDOW_MS / 1000,
      });
    }
    const content = withText(message.content, text);
    if (!content) throw new DomainError('UNPROCESSABLE', 'Only text messages and captioned media can be edited', { type: message.content.type });
    const target = this.session(loaded);
    // The channel messages that carry the text: the text part, or the media whose caption it is.
    const textParts = message.parts.filter(carriesText);
    for (const part of textParts) {
      const ref = this.ref(message, part);
      if (ref) await this.settle(loaded, 'edit', await this.call(() => this.gateway.editMessage(target, { ...ref, text })));
    }
    return this.uow.transaction(async (repos) => {
      const current = await this.sentMessage(repos, companyId, messageId);
      const now = this.clock.now();
      const parts = current.parts.map((part) => {
        if (part.content.kind === 'text') return { ...part, content: { ...part.content, text } };
        if (part.content.kind === 'media' && part.content.caption !== undefined) return { ...part, content: { ...part.content, caption: text } };
        return part;
      });
      const updated: MessageRecord = { ...current, content: withText(current.content, text) ?? content, parts, editedAt: now, updatedAt: now };
      await repos.messages.update(updated);
      return updated;
    });
  }

  /** Soft delete (idempotent): deleted for everyone at the channel, kept in our records; no credit moves. QR setores only. */
  async delete(companyId: string, messageId: string): Promise<MessageRecord> {
    const loaded = await this.load(companyId, messageId);
    const { message } = loaded;
    if (message.deletedAt) return message;
    if (!wasSent(message)) throw new DomainError('CONFLICT', `Only sent messages can be deleted; this one is ${message.status}`, { status: message.status });
    this.requireOperation(loaded, 'delete');
    const target = this.session(loaded);
    // Every channel message of the send (text then media is two), in order.
    for (const part of message.parts) {
      const ref = this.ref(message, part);
      if (ref) await this.settle(loaded, 'delete', await this.call(() => this.gateway.deleteMessage(target, ref)));
    }
    return this.uow.transaction(async (repos) => {
      const current = await repos.messages.findByIdForUpdate(companyId, messageId);
      if (!current) throw new NotFoundError('Message', { message_id: messageId });
      if (current.deletedAt) return current;
      const now = this.clock.now();
      const updated: MessageRecord = { ...current, deletedAt: now, updatedAt: now };
      await repos.messages.update(updated);
      return updated;
    });
  }

  /** Sets the setor's reaction to the message at the channel and on the record; an empty emoji removes it. */
  async react(companyId: string, messageId: string, emoji: unknown): Promise<MessageRecord> {
    if (typeof emoji !== 'string') throw new ValidationError('emoji must be a string (empty to remove the reaction)', { field: 'emoji' });
    const value = emoji.trim();
    if (value !== '' && !isEmoji(value)) {
      throw new ValidationError('emoji must be a single emoji', { field: 'emoji' });
    }
    const loaded = await this.load(companyId, messageId);
    requireLive(loaded.message);
    this.requireOperation(loaded, 'reaction');
    const target = this.session(loaded);
    // A reaction belongs to one channel message: the main one (the text, or the captioned media).
    const main = loaded.message.parts.find((p) => p.providerMessageId === loaded.message.providerMessageId) ?? loaded.message.parts[0];
    const ref = main ? this.ref(loaded.message, main) : null;
    if (ref) await this.settle(loaded, 'reaction', await this.call(() => this.gateway.react(target, { ...ref, emoji: value })));
    return this.uow.transaction(async (repos) => {
      const current = await this.sentMessage(repos, companyId, messageId);
      const now = this.clock.now();
      const updated: MessageRecord = { ...current, reaction: value === '' ? null : value, updatedAt: now };
      await repos.messages.update(updated);
      return updated;
    });
  }

  /** The record and its setor, read without a lock (the channel call comes next, outside any transaction). */
  private async load(companyId: string, messageId: string): Promise<Loaded> {
    return this.uow.transaction(async (repos) => {
      const message = await repos.messages.findById(companyId, messageId);
      // A contact's message, a note or an activity of the timeline is not a send of the API.
      if (!message || (message.direction ?? 'outbound') !== 'outbound' || (message.type ?? 'message') !== 'message') {
        throw new NotFoundError('Message', { message_id: messageId });
      }
      const setor = await repos.setores.findByIdInCompany(companyId, message.setorId);
      if (!setor) throw new NotFoundError('Message', { message_id: messageId });
      return { message, setor, instance: await repos.channelInstances.findBySetor(setor.id) };
    });
  }

  private requireOperation(loaded: Loaded, operation: SentMessageOperation): void {
    if (supportsOperation(operation, this.gateway.capabilities(loaded.setor, loaded.message.keyMode))) return;
    const details = { setor_id: loaded.setor.id, channel_type: loaded.setor.channelType };
    if (operation === 'reaction') throw new DomainError('UNPROCESSABLE', 'The channel of this number does not support reactions', details);
    throw new DomainError('UNPROCESSABLE', `Only messages sent from QR-connected numbers can be ${PAST[operation]}`, details);
  }

  /** The session that sent the message, which must still be connected with the same number. */
  private session(loaded: Loaded): SessionTarget {
    const { message, setor, instance } = loaded;
    if (!instance || instance.status !== 'connected') {
      throw new DomainError('UNPROCESSABLE', 'The number that sent this message is not connected; connect it again to change the message', {
        setor_id: message.setorId,
        status: instance?.status ?? 'disconnected',
        error_code: 'SENDER_DISCONNECTED',
      });
    }
    if (message.senderNumber && instance.phoneNumber && digits(message.senderNumber) !== digits(instance.phoneNumber)) {
      throw new DomainError('UNPROCESSABLE', 'The box is now connected with another number than the one that sent this message', {
        setor_id: message.setorId,
        sender_number: message.senderNumber,
        phone_number: instance.phoneNumber,
      });
    }
    // The key mode of the send, not of this request: a message sent with a test key lives in the simulator.
    return { setor, instance, mode: message.keyMode };
  }

  private ref(message: MessageRecord, part: MessagePart) {
    if (!part.providerMessageId) return null;
    return { to: message.phone, providerMessageId: part.providerMessageId, providerChatId: part.providerChatId ?? null };
  }

  /** A gateway that throws instead of classifying is a provider failure (as for sends). */
  private async call(operation: () => Promise<MessageOperationResult>): Promise<MessageOperationResult> {
    try {
      return await operation();
    } catch (error) {
      if (error instanceof DomainError) throw error;
      return { ok: false, code: 'TEMP_NETWORK', error: error instanceof Error ? error.message : String(error), providerFailure: true };
    }
  }

  /** A failed operation changes nothing on the record; a sender failure disconnects the setor, as a failed send does. */
  private async settle(loaded: Loaded, operation: SentMessageOperation, result: MessageOperationResult): Promise<void> {
    if (result.ok) return;
    if (disconnectsSender(result.code)) {
      await this.uow.transaction((repos) => this.senderFailures.within(repos, { setorId: loaded.setor.id, code: result.code, error: result.error }));
    }
    throw operationError(loaded.message, operation, result);
  }

  private async sentMessage(repos: Repositories<ChannelRepositories & MessageRepositories & SetorRepositories>, companyId: string, messageId: string): Promise<MessageRecord> {
    const message = await repos.messages.findByIdForUpdate(companyId, messageId);
    if (!message) throw new NotFoundError('Message', { message_id: messageId });
    requireLive(message);
    return message;
  }
}

/** Edits and reactions need a message that was sent and not deleted. */
function requireLive(message: MessageRecord): void {
  if (message.deletedAt) throw new DomainError('CONFLICT', 'The message was deleted', { deleted_at: message.deletedAt.toISOString() });
  if (!wasSent(message)) throw new DomainError('CONFLICT', `The message was not sent (status ${message.status})`, { status: message.status });
}

/** Sent, and possibly delivered or read since (receipts move the status forward). */
function wasSent(message: MessageRecord): boolean {
  return message.status === 'sent' || message.status === 'delivered' || message.status === 'read';
}

function carriesText(part: MessagePart): boolean {
  return part.content.kind === 'text' || (part.content.kind === 'media' && part.content.caption !== undefined);
}

const digits = (phone: string) => phone.replace(/\D/g, '');

/** The error a failed edit, delete or reaction answers with (as a failed send: 502, 422 WINDOW_EXPIRED or 422). */
export function operationError(message: Pick<MessageRecord, 'id' | 'setorId'>, operation: SentMessageOperation, failure: SendFailure): DomainError {
  const details = { message_id: message.id, setor_id: message.setorId, error_code: failure.code, erro_legivel: readableFailure[failure.code], error: failure.error };
  const what = { edit: 'edit', delete: 'delete', reaction: 'react to' }[operation];
  if (failure.providerFailure) return new DomainError('PROVIDER_ERROR', `The channel provider failed to ${what} the message; nothing was changed`, details);
  if (failure.code === 'OFFICIAL_WINDOW_EXPIRED') return new DomainError('WINDOW_EXPIRED', readableFailure.OFFICIAL_WINDOW_EXPIRED, details);
  return new DomainError('UNPROCESSABLE', `The channel refused to ${what} the message: ${readableFailure[failure.code]}`, details);
}

function withText(content: MessageContent, text: string): MessageContent | null {
  if (content.type === 'text') return { type: 'text', text };
  if (content.type === 'media' && content.text !== undefined && content.text !== '') return { ...content, text };
  return null;
}

/** One emoji (with its modifiers, joiners, flags or keycap): pictographic, no letters or spaces. */
export function isEmoji(value: string): boolean {
  return (
    [...value].length <= MAX_REACTION_LENGTH &&
    /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3/u.test(value) &&
    !/[\p{L}\s]/u.test(value)
  );
}
