import type { Timestamp, Json } from '../shared/column-types.js';

/** `ticket_sends` (migration 0018): automatic ticket messages and what their sending did. */
export interface TicketSendsTable {
  id: string;
  company_id: string;
  ticket_id: string;
  setor_id: string;
  kind: string;
  status: string;
  key_mode: string;
  attempts: number;
  claimed_at: Timestamp | null;
  charge: Json<{ debited: number; counted: number; day: string } | null> | null;
  error_code: string | null;
  error: string | null;
  sent_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TicketSendsTables {
  ticket_sends: TicketSendsTable;
}

declare module '../shared/database.js' {
  interface Database extends TicketSendsTables {}
}
