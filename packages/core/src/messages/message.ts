import type { KeyMode } from '../api-keys/index.js';
import type { OutboundContent } from '../channel/index.js';
import type { SendFailureCode } from '../channel/index.js';
import type { MessageContent } from './message-content.js';

export type MessageStatus = 'pending' | 'sent' | 'failed';

/** One channel message of a send, with the provider's id once it was accepted. */
export interface MessagePart {
  content: OutboundContent;
  providerMessageId: string | null;
  /** `SendResult.providerChatId`, kept for edits, deletes and reactions (absent on older records). */
  providerChatId?: string | null;
}

/**
 * A single message sent through the API (one send may be several channel messages, e.g.
 * text then media). Edits, deletes and reactions act on it.
 */
export interface MessageRecord {
  id: string;
  companyId: string;
  conversationId: string;
  setorId: string;
  contactId: string;
  /** Recipient, E.164. */
  phone: string;
  /** The setor's number at the time of sending. */
  senderNumber: string | null;
  keyMode: KeyMode;
  /** What the API was asked to send. */
  content: MessageContent;
  /** What the channel was asked to send. */
  parts: MessagePart[];
  status: MessageStatus;
  /** The provider id of the main part (the caption or text part when there is one). */
  providerMessageId: string | null;
  errorCode: SendFailureCode | null;
  error: string | null;
  /** Current reaction emoji of the setor on this message; null when none. */
  reaction: string | null;
  editedAt: Date | null;
  deletedAt: Date | null;
  sentAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** About how long after sending a text can still be edited. */
export const EDIT_WINDOW_MS = 15 * 60 * 1000;
