import type { Clock } from '../shared/clock.js';
import { DomainError, NotFoundError, ValidationError } from '../shared/errors.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import { EDIT_WINDOW_MS, type MessageRecord } from './message.js';
import { MAX_TEXT_LENGTH, type MessageContent } from './message-content.js';

/** Longest reaction accepted (an emoji with modifiers and joiners is several code points). */
export const MAX_REACTION_LENGTH = 16;

/**
 * Edit, soft delete and reaction on a message sent through the API (PATCH, DELETE and
 * POST …/reaction of /v1/messages/:conversa_id, where the id is the `message_id` of the send).
 * Edits and deletes are for QR boxes only; the record keeps what happened.
 */
export class ManageSentMessage {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** New text of a text message, or new caption of a captioned media, within about 15 minutes of sending. */
  async edit(companyId: string, messageId: string, text: unknown): Promise<MessageRecord> {
    if (typeof text !== 'string' || text.trim() === '') throw new ValidationError('text is required', { field: 'text' });
    if (text.length > MAX_TEXT_LENGTH) throw new ValidationError(`text is longer than ${MAX_TEXT_LENGTH} characters`, { field: 'text', max: MAX_TEXT_LENGTH });
    return this.uow.transaction(async (repos) => {
      const now = this.clock.now();
      const message = await this.sentMessage(repos, companyId, messageId);
      await this.requireQrBox(repos, message, 'edited');
      const sentAt = message.sentAt ?? message.createdAt;
      if (now.getTime() - sentAt.getTime() > EDIT_WINDOW_MS) {
        throw new DomainError('UNPROCESSABLE', 'The edit window of this message has passed (about 15 minutes after sending)', {
          sent_at: sentAt.toISOString(),
          edit_window_seconds: EDIT_WINDOW_MS / 1000,
        });
      }
      const content = withText(message.content, text);
      if (!content) throw new DomainError('UNPROCESSABLE', 'Only text messages and captioned media can be edited', { type: message.content.type });
      const parts = message.parts.map((part) => {
        if (part.content.kind === 'text') return { ...part, content: { ...part.content, text } };
        if (part.content.kind === 'media' && part.content.caption !== undefined) return { ...part, content: { ...part.content, caption: text } };
        return part;
      });
      const updated: MessageRecord = { ...message, content, parts, editedAt: now, updatedAt: now };
      await repos.messages.update(updated);
      return updated;
    });
  }

  /** Soft delete (idempotent); no credit moves. */
  async delete(companyId: string, messageId: string): Promise<MessageRecord> {
    return this.uow.transaction(async (repos) => {
      const now = this.clock.now();
      const message = await repos.messages.findByIdForUpdate(companyId, messageId);
      if (!message) throw new NotFoundError('Message', { message_id: messageId });
      if (message.deletedAt) return message;
      if (message.status !== 'sent') throw new DomainError('CONFLICT', `Only sent messages can be deleted; this one is ${message.status}`, { status: message.status });
      await this.requireQrBox(repos, message, 'deleted');
      const updated: MessageRecord = { ...message, deletedAt: now, updatedAt: now };
      await repos.messages.update(updated);
      return updated;
    });
  }

  /** Sets the box's reaction to the message; an empty emoji removes it. */
  async react(companyId: string, messageId: string, emoji: unknown): Promise<MessageRecord> {
    if (typeof emoji !== 'string') throw new ValidationError('emoji must be a string (empty to remove the reaction)', { field: 'emoji' });
    const value = emoji.trim();
    if (value !== '' && !isEmoji(value)) {
      throw new ValidationError('emoji must be a single emoji', { field: 'emoji' });
    }
    return this.uow.transaction(async (repos) => {
      const now = this.clock.now();
      const message = await this.sentMessage(repos, companyId, messageId);
      const updated: MessageRecord = { ...message, reaction: value === '' ? null : value, updatedAt: now };
      await repos.messages.update(updated);
      return updated;
    });
  }

  private async sentMessage(repos: Repositories, companyId: string, messageId: string): Promise<MessageRecord> {
    const message = await repos.messages.findByIdForUpdate(companyId, messageId);
    if (!message) throw new NotFoundError('Message', { message_id: messageId });
    if (message.deletedAt) throw new DomainError('CONFLICT', 'The message was deleted', { deleted_at: message.deletedAt.toISOString() });
    if (message.status !== 'sent') throw new DomainError('CONFLICT', `The message was not sent (status ${message.status})`, { status: message.status });
    return message;
  }

  private async requireQrBox(repos: Repositories, message: MessageRecord, what: string): Promise<void> {
    const setor = await repos.setores.findByIdInCompany(message.companyId, message.setorId);
    if (!setor || setor.channelType !== 'qr') {
      throw new DomainError('UNPROCESSABLE', `Only messages sent from QR-connected numbers can be ${what}`, { setor_id: message.setorId, channel_type: setor?.channelType ?? null });
    }
  }
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
