import type { ColumnType } from 'kysely';
import type { Timestamp, Json } from '../shared/column-types.js';

export interface ContractTemplatesTable {
  id: string;
  company_id: string;
  name: string;
  description: string | null;
  body: string;
  variables: Json<unknown>;
  active: boolean;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ContractsTable {
  id: string;
  company_id: string;
  title: string;
  status: string;
  value_cents: number | null;
  client_id: string;
  opportunity_id: string | null;
  template_id: string | null;
  variables: Json<unknown>;
  content: string;
  signers: Json<unknown>;
  expires_in_days: number;
  sent_at: Timestamp | null;
  expires_at: Timestamp | null;
  signed_at: Timestamp | null;
  refused_at: Timestamp | null;
  cancelled_at: Timestamp | null;
  sending_since: Timestamp | null;
  document: ColumnType<unknown, string | null, string | null>;
  delivery: ColumnType<unknown, string | null, string | null>;
  provider: string | null;
  provider_ref: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SigningEventsTable {
  provider: string;
  event_id: string;
  received_at: Timestamp;
}

/** Tables of the contracts area (migration `0009-contracts.ts`). */
export interface ContractsTables {
  contract_templates: ContractTemplatesTable;
  contracts: ContractsTable;
  signing_events: SigningEventsTable;
}

declare module '../shared/database.js' {
  interface Database extends ContractsTables {}
}
