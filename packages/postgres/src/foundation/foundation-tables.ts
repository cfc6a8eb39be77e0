import type { ColumnType, Generated, JSONColumnType } from 'kysely';
import type { Timestamp } from '../shared/column-types.js';

export interface CompaniesTable {
  id: string;
  name: string;
  plan_code: string;
  modality: string;
  expires_at: Timestamp | null;
  avulso_balance: number;
  unlimited: boolean;
  bulk_messaging_enabled: boolean;
  multi_number_enabled: boolean;
  daily_limit: number | null;
  concurrent_campaigns_limit: number | null;
  company_rpm: number | null;
  safe_hours_start: number;
  safe_hours_end: number;
  timezone: string;
  default_country: Generated<string>;
  /** Quota name → limit (0013); absent quotas take the plan's. */
  quota_overrides: ColumnType<Record<string, number>, string | undefined, string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ApiKeysTable {
  id: string;
  company_id: string;
  name: string;
  prefix: string;
  key_hash: string;
  scopes: string[];
  mode: string;
  rpm: number;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
  expires_at: Timestamp | null;
}

export interface SetoresTable {
  id: string;
  company_id: string;
  nome: string;
  channel_type: string;
  official: JSONColumnType<{ phoneNumberId: string; accessToken: string; wabaId: string } | null>;
  warming_daily_limit_override: number | null;
  // Ticket settings (0014-agents).
  closing_message: string | null;
  csat_enabled: Generated<boolean>;
  csat_question: string | null;
  csat_thanks: string | null;
  reopen_window_minutes: Generated<number>;
  assistant_enabled: Generated<boolean>;
  default_team_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TeamsTable {
  id: string;
  company_id: string;
  nome: string;
  // Auto-assignment settings (0014-agents).
  auto_assign: Generated<boolean>;
  max_open_per_agent: Generated<number>;
  created_at: Timestamp;
}

export interface TeamSetoresTable {
  team_id: string;
  setor_id: string;
  position: number;
}

export interface UsageDailyTable {
  scope: string;
  scope_id: string;
  day: string;
  sent: number;
}

export interface RateLimitCountersTable {
  bucket: string;
  window_start: Timestamp;
  count: number;
}

export interface DomainEventsTable {
  seq: Generated<string>;
  id: string;
  event: string;
  company_id: string;
  setor_id: string | null;
  occurred_at: Timestamp;
  data: JSONColumnType<Record<string, unknown>>;
  actor: JSONColumnType<{ user_id: string | null; source: string }>;
  callback_url: string | null;
}

export interface SystemSettingsTable {
  key: string;
  value: string;
  updated_at: Timestamp;
}

export interface FoundationTables {
  companies: CompaniesTable;
  api_keys: ApiKeysTable;
  setores: SetoresTable;
  teams: TeamsTable;
  team_setores: TeamSetoresTable;
  usage_daily: UsageDailyTable;
  rate_limit_counters: RateLimitCountersTable;
  domain_events: DomainEventsTable;
  system_settings: SystemSettingsTable;
}

declare module '../shared/database.js' {
  interface Database extends FoundationTables {}
}
