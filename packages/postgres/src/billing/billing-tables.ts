import type { Timestamp, BigInt, Json } from '../shared/column-types.js';

export interface CreditBalancesTable {
  company_id: string;
  kind: string;
  balance: number;
}

export interface PaymentsTable {
  id: string;
  company_id: string;
  kind: string;
  units: number;
  amount_cents: BigInt;
  method: string;
  external_ref: string;
  balance_after: number;
  paid_at: Timestamp;
  created_at: Timestamp;
}

export interface LowBalanceThresholdsTable {
  company_id: string;
  thresholds: Json<unknown>;
}

export interface LowBalanceAlertsTable {
  company_id: string;
  kind: string;
  level: string;
  id: string;
}

/** Tables of the billing area (migration `0012-billing.ts`). */
export interface BillingTables {
  credit_balances: CreditBalancesTable;
  payments: PaymentsTable;
  low_balance_thresholds: LowBalanceThresholdsTable;
  low_balance_alerts: LowBalanceAlertsTable;
}

declare module '../shared/database.js' {
  interface Database extends BillingTables {}
}
