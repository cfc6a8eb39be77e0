import type { ColumnType, Generated } from 'kysely';
import type { Timestamp, BigInt, Json } from '../shared/column-types.js';

export interface CrmStagesTable {
  id: string;
  company_id: string;
  name: string;
  position: number;
  is_won: boolean;
  is_lost: boolean;
  win_probability: number;
  color: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CrmProductsTable {
  id: string;
  company_id: string;
  name: string;
  price_cents: BigInt;
  sku: string | null;
  unit: string | null;
  description: string | null;
  active: boolean;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CrmOpportunitiesTable {
  id: string;
  company_id: string;
  title: string;
  value_cents: number | null;
  products_total_cents: BigInt;
  effective_value_cents: ColumnType<number, never, never>;
  status: string;
  stage_id: string;
  client_id: string;
  assignee_id: string | null;
  ticket_id: string | null;
  description: string | null;
  expected_close_date: ColumnType<string | null, string | null, string | null>;
  lost_reason: string | null;
  closed_at: Timestamp | null;
  products: Json<unknown>;
  deleted_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CrmOpportunityHistoryTable {
  seq: Generated<number>;
  id: string;
  company_id: string;
  opportunity_id: string;
  at: Timestamp;
  actor: Json<unknown>;
  kind: string;
  changes: Json<unknown>;
}

export interface CrmOpportunityTotalsTable {
  company_id: string;
  stage_id: string;
  status: string;
  assignee_key: string;
  opportunities: number;
  value_cents: number;
}

/** Tables of the CRM area (migration `0008-crm.ts`). */
export interface CrmTables {
  crm_stages: CrmStagesTable;
  crm_products: CrmProductsTable;
  crm_opportunities: CrmOpportunitiesTable;
  crm_opportunity_history: CrmOpportunityHistoryTable;
  crm_opportunity_totals: CrmOpportunityTotalsTable;
}

declare module '../shared/database.js' {
  interface Database extends CrmTables {}
}
