import type { ColumnType, JSONColumnType } from 'kysely';
import type { Timestamp } from '../shared/column-types.js';

// The contact and tag tables created by 0003 are typed with the contacts area (../contacts/contacts-tables.ts).

export interface ConversationsTable {
  id: string;
  company_id: string;
  setor_id: string;
  contact_id: string;
  last_inbound_at: Timestamp | null;
  last_outbound_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MessagesTable {
  id: string;
  company_id: string;
  conversation_id: string;
  setor_id: string;
  contact_id: string;
  phone: string;
  sender_number: string | null;
  key_mode: string;
  content: JSONColumnType<Record<string, unknown>>;
  parts: JSONColumnType<Record<string, unknown>[]>;
  status: string;
  provider_message_id: string | null;
  error_code: string | null;
  error: string | null;
  reaction: string | null;
  edited_at: Timestamp | null;
  deleted_at: Timestamp | null;
  sent_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  // Columns added by 0015-tickets (see ../tickets/0015-tickets.ts).
  ticket_id: string | null;
  direction: ColumnType<string, string | undefined, string>;
  type: ColumnType<string, string | undefined, string>;
  author: JSONColumnType<Record<string, unknown>, string | null, string | null> | null;
  activity: JSONColumnType<Record<string, unknown>, string | null, string | null> | null;
  delivered_at: Timestamp | null;
  read_at: Timestamp | null;
}

export interface RotationCursorsTable {
  key: string;
  position: number;
  updated_at: Timestamp;
}

/** Tables of the messages feature (migration 0003). */
export interface MessagesTables {
  conversations: ConversationsTable;
  messages: MessagesTable;
  rotation_cursors: RotationCursorsTable;
}

declare module '../shared/database.js' {
  interface Database extends MessagesTables {}
}
