import type { BillingRepositories, BillingRepository, CreditKind, LowBalanceLevel, LowBalanceThresholds, Payment, PaymentMethod, StoredCreditKind } from '@carteiro/core';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../shared/database.js';
import { readPage } from '../shared/read-page.js';
import { columnsOf, fieldsOf } from '../shared/row-fields.js';
import type { PaymentsTable } from './billing-tables.js';

function toPayment(row: Selectable<PaymentsTable>): Payment {
  return {
    ...fieldsOf(row, ['id', 'company_id', 'units', 'external_ref', 'balance_after', 'paid_at', 'created_at']),
    kind: row.kind as CreditKind,
    amountCents: Number(row.amount_cents),
    method: row.method as PaymentMethod,
  };
}

export class KyselyBillingRepository implements BillingRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async balances(companyId: string) {
    const rows = await this.db.selectFrom('credit_balances').select(['kind', 'balance']).where('company_id', '=', companyId).execute();
    const of = (kind: StoredCreditKind) => rows.find((r) => r.kind === kind)?.balance ?? 0;
    return { ai_credits: of('ai_credits'), lead_credits: of('lead_credits') };
  }

  /** One statement: the CHECK (balance >= 0) never lets a debit through, the WHERE refuses it without an error. */
  async adjust(companyId: string, kind: StoredCreditKind, delta: number) {
    if (delta >= 0) {
      const row = await this.db
        .insertInto('credit_balances')
        .values({ company_id: companyId, kind, balance: delta })
        .onConflict((oc) => oc.columns(['company_id', 'kind']).doUpdateSet({ balance: sql<number>`credit_balances.balance + ${delta}` }))
        .returning('balance')
        .executeTakeFirstOrThrow();
      return row.balance;
    }
    const row = await this.db
      .updateTable('credit_balances')
      .set({ balance: sql<number>`balance + ${delta}` })
      .where('company_id', '=', companyId)
      .where('kind', '=', kind)
      .where('balance', '>=', -delta)
      .returning('balance')
      .executeTakeFirst();
    return row ? row.balance : null;
  }

  async insertPayment(payment: Payment) {
    const result = await this.db
      .insertInto('payments')
      .values(columnsOf(payment, ['id', 'companyId', 'kind', 'units', 'amountCents', 'method', 'externalRef', 'balanceAfter', 'paidAt', 'createdAt']))
      .onConflict((oc) => oc.columns(['company_id', 'external_ref']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async findPaymentByExternalRef(companyId: string, externalRef: string) {
    const row = await this.db.selectFrom('payments').selectAll().where('company_id', '=', companyId).where('external_ref', '=', externalRef).executeTakeFirst();
    return row ? toPayment(row) : null;
  }

  async listPayments(companyId: string, page: { page: number; limit: number }) {
    const payments = this.db.selectFrom('payments').where('company_id', '=', companyId);
    return readPage(payments, (q) => q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'), page, (rows) => rows.map(toPayment));
  }

  async thresholds(companyId: string): Promise<LowBalanceThresholds> {
    const row = await this.db.selectFrom('low_balance_thresholds').select('thresholds').where('company_id', '=', companyId).executeTakeFirst();
    return (row?.thresholds as LowBalanceThresholds | undefined) ?? {};
  }

  async setThresholds(companyId: string, thresholds: LowBalanceThresholds) {
    const value = JSON.stringify(thresholds);
    await this.db
      .insertInto('low_balance_thresholds')
      .values({ company_id: companyId, thresholds: value })
      .onConflict((oc) => oc.column('company_id').doUpdateSet({ thresholds: value }))
      .execute();
  }

  /** The primary key makes the claim once: a concurrent claimer waits for this transaction and then inserts nothing. */
  async claimAlert(companyId: string, kind: CreditKind, level: LowBalanceLevel) {
    const levels: LowBalanceLevel[] = level === 'exhausted' ? ['exhausted', 'low'] : ['low'];
    const row = await this.db
      .insertInto('low_balance_alerts')
      .values({ company_id: companyId, kind, level, id: sql<string>`gen_random_uuid()` })
      .onConflict((oc) => oc.columns(['company_id', 'kind', 'level']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!row) return null;
    for (const other of levels.slice(1)) {
      await this.db
        .insertInto('low_balance_alerts')
        .values({ company_id: companyId, kind, level: other, id: sql<string>`gen_random_uuid()` })
        .onConflict((oc) => oc.columns(['company_id', 'kind', 'level']).doNothing())
        .execute();
    }
    return row.id;
  }

  async rearmAlerts(companyId: string, kind: CreditKind) {
    await this.db.deleteFrom('low_balance_alerts').where('company_id', '=', companyId).where('kind', '=', kind).execute();
  }
}

export function kyselyBillingRepositories(db: Kysely<Database>): BillingRepositories {
  return { billing: new KyselyBillingRepository(db) };
}
