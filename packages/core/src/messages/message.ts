import type { KeyMode } from '../api-keys/index.js';
import type { OutboundContent } from '../channel/index.js';
import type { SendFailureCode } from '../channel/index.js';
import type { MessageContent } from './message-content.js';

/** `received`: an inbound message; `delivered` and `read`: receipts of a sent one (they only move forward). */
export type MessageStatus = 'pending' | 'sent' | 'failed' | 'received' | 'delivered' | 'read';

/** Who wrote a timeline item: the contact, an agent (`id`: the agent), the API, the system or the assistant. */
export interface MessageAuthor {
  type: 'contact' | 'agent' | 'api' | 'system' | 'assistant';
  id: string | null;
}

/** What an activity item of the timeline records (a status move, an assignment, a skipped closing message…). */
export interface MessageActivity {
  kind: string;
  from: unknown;
  to: unknown;
}

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
  /** The ticket the item belongs to (tickets area); absent or null: none. */
  ticketId?: string | null;
  /** Absent: `outbound`. */
  direction?: 'inbound' | 'outbound';
  /** `message` (sent or received), `note` (private, never sent) or `activity`; absent: `message`. */
  type?: 'message' | 'note' | 'activity';
  author?: MessageAuthor | null;
  activity?: MessageActivity | null;
  deliveredAt?: Date | null;
  readAt?: Date | null;
}

/**
 * The fields of a message row as it is written, before anything happens to it: not sent yet, no
 * failure, no reaction, edit or deletion.
 */
export const FRESH_MESSAGE_FIELDS = { errorCode: null, error: null, reaction: null, editedAt: null, deletedAt: null, sentAt: null } as const satisfies Partial<MessageRecord>;

/** About how long after sending a text can still be edited. */
export const EDIT_WINDOW_MS = 15 * 60 * 1000;
