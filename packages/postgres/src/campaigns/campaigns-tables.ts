import type { ColumnType, JSONColumnType } from 'kysely';
import type { Timestamp } from '../shared/column-types.js';

export interface CampaignsTable {
  id: string;
  company_id: string;
  api_key_id: string | null;
  mode: string;
  name: string;
  title: string | null;
  description: string | null;
  status: string;
  content: JSONColumnType<Record<string, unknown>>;
  anti_ban_level: string;
  distribution: string;
  distribution_mode: string;
  setor_ids: string[];
  execution_mode: string;
  scheduled_for: Timestamp | null;
  waiting_reason: string | null;
  callback_url: string | null;
  credits_reserved: number;
  total: number;
  enviados: number;
  falhas: number;
  pulados: number;
  error: string | null;
  cancelled_by_user: boolean;
  created_at: Timestamp;
  updated_at: Timestamp;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
  /** When housekeeping deleted its recipients (`CAMPAIGN_MESSAGE_RETENTION_DAYS`, migration 0016). */
  messages_purged_at?: Timestamp | null;
}

export interface CampaignMessagesTable {
  id: string;
  campaign_id: string;
  company_id: string;
  seq: number;
  contact_id: string | null;
  phone: string;
  name: string | null;
  text: string | null;
  media_url: string | null;
  media_type: string | null;
  variables: JSONColumnType<Record<string, string> | null>;
  status: string;
  assigned_setor_id: string;
  setor_id: string;
  actual_setor_id: string | null;
  was_reassigned: boolean;
  error: string | null;
  error_code: string | null;
  skip_reason: string | null;
  attempts: number;
  manual_retries: number;
  auto_retries: number;
  not_before: Timestamp | null;
  claimed_by: string | null;
  claimed_at: Timestamp | null;
  provider_message_id: string | null;
  sent_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DispatchLanesTable {
  setor_id: string;
  owner: string | null;
  lease_until: Timestamp | null;
  next_send_at: Timestamp | null;
  updated_at: Timestamp;
}

export interface IdempotencyKeysTable {
  company_id: string;
  key: string;
  request_hash: string;
  state: string;
  response_status: number | null;
  response_body: ColumnType<unknown, string | null, string | null>;
  created_at: Timestamp;
  locked_until: Timestamp;
}

/** Tables of the campaigns feature (migration 0004). */
export interface CampaignsTables {
  campaigns: CampaignsTable;
  campaign_messages: CampaignMessagesTable;
  dispatch_lanes: DispatchLanesTable;
  idempotency_keys: IdempotencyKeysTable;
}

declare module '../shared/database.js' {
  interface Database extends CampaignsTables {}
}
