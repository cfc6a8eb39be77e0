import type { Timestamp } from '../shared/column-types.js';

export interface WebhooksTable {
  id: string;
  company_id: string;
  url: string;
  events: string[];
  secret: string;
  active: boolean;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhookDeliveriesTable {
  id: string;
  company_id: string;
  webhook_id: string | null;
  callback_url: string | null;
  event_id: string;
  event: string;
  /** The raw JSON body, kept as text so that every attempt sends the same bytes. */
  payload: string;
  status: string;
  attempts: number;
  round_attempts: number;
  next_attempt_at: Timestamp | null;
  locked_until: Timestamp | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  completed_at: Timestamp | null;
}

export interface WebhookAttemptsTable {
  delivery_id: string;
  /** The delivery's `created_at`: the partition key (migration 0016). */
  delivery_created_at: Timestamp;
  number: number;
  started_at: Timestamp;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  result: string;
}

export interface WebhookEventQueueTable {
  seq: number;
  /** The event's `occurred_at` (migration 0016): which partition holds it. */
  occurred_at: Timestamp;
}

/** Tables of the webhooks feature (migration in `../migrations`). */
export interface WebhooksTables {
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  webhook_event_queue: WebhookEventQueueTable;
}

declare module '../shared/database.js' {
  interface Database extends WebhooksTables {}
}
