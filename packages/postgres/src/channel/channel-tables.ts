import type { Generated, JSONColumnType } from 'kysely';
import type { Timestamp } from '../shared/column-types.js';

export interface ChannelInstancesTable {
  id: string;
  company_id: string;
  setor_id: string;
  status: string;
  phone_number: string | null;
  provider_ref: string | null;
  proxy_configured: boolean;
  qr_requested_at: Timestamp | null;
  connected_at: Timestamp | null;
  disconnected_at: Timestamp | null;
  profile_name: string | null;
  profile_picture_url: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ChannelHealthTable {
  instance_id: string;
  company_id: string;
  setor_id: string;
  state: string;
  connected: boolean;
  responding: boolean;
  last_checked_at: Timestamp;
  last_ok_at: Timestamp | null;
  consecutive_failures: number;
  error: string | null;
}

export interface ChannelHealthHistoryTable {
  id: Generated<string>;
  instance_id: string;
  company_id: string;
  setor_id: string;
  checked_at: Timestamp;
  state: string;
  connected: boolean;
  responding: boolean;
  error: string | null;
}

export interface ConversationWindowsTable {
  setor_id: string;
  phone_key: string;
  last_inbound_at: Timestamp;
}

export interface SimulatorMessagesTable {
  seq: Generated<string>;
  id: string;
  client_message_id: string;
  company_id: string;
  setor_id: string;
  instance_id: string;
  from_number: string | null;
  to_number: string;
  to_digits: string;
  kind: string;
  text: string | null;
  media_url: string | null;
  media_type: string | null;
  media_filename: string | null;
  template_name: string | null;
  payload: JSONColumnType<Record<string, unknown>>;
  outcome: string;
  error_code: string | null;
  error: string | null;
  provider_failure: boolean;
  sent_at: Timestamp;
}

/** One row per client message id (migration 0016): the uniqueness the partitioned outbox cannot hold. */
export interface SimulatorMessageKeysTable {
  client_message_id: string;
  sent_at: Timestamp;
}

/** A successful simulated send whose delivery receipt is still owed (0026); deleted when it is settled. */
export interface SimulatorReceiptsOwedTable {
  sent_at: Timestamp;
  id: string;
  setor_id: string;
}

export interface SimulatorSessionEndsTable {
  instance_id: string;
  ended_at: Timestamp;
  reason: string;
}

/** Tables of the channel feature (migration 0002). */
export interface ChannelTables {
  channel_instances: ChannelInstancesTable;
  channel_health: ChannelHealthTable;
  channel_health_history: ChannelHealthHistoryTable;
  conversation_windows: ConversationWindowsTable;
  simulator_messages: SimulatorMessagesTable;
  simulator_message_keys: SimulatorMessageKeysTable;
  simulator_receipts_owed: SimulatorReceiptsOwedTable;
  simulator_session_ends: SimulatorSessionEndsTable;
}

declare module '../shared/database.js' {
  interface Database extends ChannelTables {}
}
