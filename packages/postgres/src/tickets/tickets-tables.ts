import type { JSONColumnType } from 'kysely';
import type { Timestamp, BigInt } from '../shared/column-types.js';

export interface TicketCountersTable {
  company_id: string;
  last_number: BigInt;
}

export interface TicketsTable {
  id: string;
  company_id: string;
  number: BigInt;
  status: string;
  priority: string | null;
  priority_rank: number;
  setor_id: string;
  contact_id: string;
  conversation_id: string;
  agent_id: string | null;
  team_id: string | null;
  snoozed_until: Timestamp | null;
  waiting_since: Timestamp | null;
  /** `{ id, direction, type, preview, at }`. */
  last_message: JSONColumnType<Record<string, unknown>, string | null, string | null> | null;
  last_activity_at: Timestamp;
  source: string;
  first_response_at: Timestamp | null;
  closed_at: Timestamp | null;
  close_reason: string | null;
  rating_status: string;
  rating_requested_at: Timestamp | null;
  rating_score: number | null;
  rating_comment: string | null;
  rated_at: Timestamp | null;
  rating_source: string | null;
  rated_agent_id: string | null;
  rated_team_id: string | null;
  handoff_summary: string | null;
  handoff_at: Timestamp | null;
  version: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TicketTagsTable {
  ticket_id: string;
  tag_id: string;
  company_id: string;
  created_at: Timestamp;
}

export interface TicketLinksTable {
  ticket_id: string;
  type: string;
  target_id: string;
  company_id: string;
  linked_at: Timestamp;
}

/** Tables of the tickets area (migration 0015; its message columns are typed with the messages area). */
export interface TicketsTables {
  ticket_counters: TicketCountersTable;
  tickets: TicketsTable;
  ticket_tags: TicketTagsTable;
  ticket_links: TicketLinksTable;
}

declare module '../shared/database.js' {
  interface Database extends TicketsTables {}
}
