import type { ColumnType } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;

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

/** Tables of the channel feature (migration 0002). */
export interface ChannelTables {
  channel_instances: ChannelInstancesTable;
}
