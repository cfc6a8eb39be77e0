import type { Timestamp, Json } from '../shared/column-types.js';

export interface LeadSearchesTable {
  id: string;
  company_id: string;
  api_key_id: string;
  mode: 'live' | 'test';
  status: string;
  criteria: Json<unknown>;
  source: string;
  returned: number;
  total: number;
  credits_used: number;
  dataset_month: string | null;
  cursor: string | null;
  pages_read: number;
  error: string | null;
  created_at: Timestamp;
  started_at: Timestamp | null;
  completed_at: Timestamp | null;
  expires_at: Timestamp;
}

export interface LeadSearchItemsTable {
  search_id: string;
  position: number;
  lead: Json<unknown>;
}

export interface LeadChannelChecksTable {
  company_id: string;
  setor_id: string;
  phone: string;
  has_channel: boolean | null;
  checked_at: Timestamp;
}

/** Tables of the leads area (migration `0011-leads.ts`). */
export interface LeadsTables {
  lead_searches: LeadSearchesTable;
  lead_search_items: LeadSearchItemsTable;
  lead_channel_checks: LeadChannelChecksTable;
}

declare module '../shared/database.js' {
  interface Database extends LeadsTables {}
}
