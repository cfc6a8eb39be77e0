import { isUuid, type UsageRepository } from '@carteiro/core';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../shared/database.js';
import { groupedOn } from '../shared/grouped-statements.js';

function compareRows(a: { scope: string; scopeId: string; day: string }, b: { scope: string; scopeId: string; day: string }): number {
  if (a.scope !== b.scope) return a.scope < b.scope ? -1 : 1;
  if (a.scopeId !== b.scopeId) return a.scopeId < b.scopeId ? -1 : 1;
  return a.day < b.day ? -1 : a.day > b.day ? 1 : 0;
}

export class KyselyUsageRepository implements UsageRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async addSent(companyId: string, setorId: string | null, day: string, count: number): Promise<void> {
    if (count === 0) return;
    const rows = [{ scope: 'company', scope_id: companyId, day, sent: Math.max(0, count) }];
    if (setorId) rows.push({ scope: 'setor', scope_id: setorId, day, sent: Math.max(0, count) });
    await this.db
      .insertInto('usage_daily')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['scope', 'scope_id', 'day']).doUpdateSet({ sent: sql`greatest(0, usage_daily.sent + ${count})` }),
      )
      .execute();
  }

  async addSentAll(entries: readonly { companyId: string; setorId: string | null; day: string; count: number }[]): Promise<void> {
    const totals = new Map<string, { scope: string; scopeId: string; day: string; count: number }>();
    const add = (scope: string, scopeId: string, day: string, count: number) => {
      const key = `${scope}\u0000${scopeId}\u0000${day}`;
      const row = totals.get(key) ?? { scope, scopeId, day, count: 0 };
      row.count += count;
      totals.set(key, row);
    };
    for (const e of entries) {
      if (e.count === 0) continue;
      add('company', e.companyId, e.day, e.count);
      if (e.setorId) add('setor', e.setorId, e.day, e.count);
    }
    const rows = [...totals.values()].filter((r) => r.count !== 0);
    // A decrease (a refund) is rare: the one-row path keeps it from going below zero.
    for (const r of rows.filter((row) => row.count < 0)) {
      await this.db
        .insertInto('usage_daily')
        .values({ scope: r.scope, scope_id: r.scopeId, day: r.day, sent: 0 })
        .onConflict((oc) => oc.columns(['scope', 'scope_id', 'day']).doUpdateSet({ sent: sql`greatest(0, usage_daily.sent + ${r.count})` }))
        .execute();
    }
    // Key order ('company' rows before 'setor' rows, as addSent writes them): overlapping writers lock alike.
    const up = rows.filter((r) => r.count > 0).sort((a, b) => compareRows(a, b));
    if (up.length === 0) return;
    await sql`
      INSERT INTO usage_daily (scope, scope_id, day, sent)
      SELECT r.scope, r.scope_id, r.day, r.sent
      FROM unnest(${up.map((r) => r.scope)}::text[], ${up.map((r) => r.scopeId)}::uuid[], ${up.map((r) => r.day)}::date[], ${up.map((r) => r.count)}::int[])
        WITH ORDINALITY AS r(scope, scope_id, day, sent, ord)
      ORDER BY r.ord
      ON CONFLICT (scope, scope_id, day) DO UPDATE SET sent = usage_daily.sent + excluded.sent
    `.execute(this.db);
  }

  private async sent(scope: string, id: string, day: string): Promise<number> {
    const row = await this.db
      .selectFrom('usage_daily')
      .select('sent')
      .where('scope', '=', scope)
      .where('scope_id', '=', id)
      .where('day', '=', day)
      .executeTakeFirst();
    return row?.sent ?? 0;
  }

  sentByCompany(companyId: string, day: string): Promise<number> {
    return this.sent('company', companyId, day);
  }

  sentBySetor(setorId: string, day: string): Promise<number> {
    if (!this.db.isTransaction && isUuid(setorId)) {
      // Outside a transaction (the dispatch lanes of a worker reading their context) the reads made at once share a statement.
      const db = this.db;
      return groupedOn<{ setorId: string; day: string }, number>(db, 'usage.sentBySetor', async (asked) => {
        const { rows } = await sql<{ ord: string; sent: number | null }>`
          SELECT r.ord, u.sent FROM unnest(${asked.map((a) => a.setorId)}::uuid[], ${asked.map((a) => a.day)}::date[]) WITH ORDINALITY AS r(id, day, ord)
          LEFT JOIN usage_daily u ON u.scope = 'setor' AND u.scope_id = r.id AND u.day = r.day`.execute(db);
        const sent = new Map(rows.map((row) => [Number(row.ord), row.sent ?? 0]));
        return asked.map((_, i) => sent.get(i + 1) ?? 0);
      }).submit({ setorId, day });
    }
    return this.sent('setor', setorId, day);
  }

  async setorHistory(setorId: string, beforeDay: string): Promise<{ activeDays: number; totalSent: number }> {
    if (!this.db.isTransaction && isUuid(setorId)) {
      const db = this.db;
      return groupedOn<{ setorId: string; beforeDay: string }, { activeDays: number; totalSent: number }>(db, 'usage.setorHistory', async (asked) => {
        const { rows } = await sql<{ ord: string; days: number; total: number }>`
          SELECT r.ord, count(u.day)::int AS days, coalesce(sum(u.sent), 0)::int AS total
          FROM unnest(${asked.map((a) => a.setorId)}::uuid[], ${asked.map((a) => a.beforeDay)}::date[]) WITH ORDINALITY AS r(id, before_day, ord)
          LEFT JOIN usage_daily u ON u.scope = 'setor' AND u.scope_id = r.id AND u.day < r.before_day AND u.sent > 0
          GROUP BY r.ord`.execute(db);
        const found = new Map(rows.map((row) => [Number(row.ord), { activeDays: Number(row.days), totalSent: Number(row.total) }]));
        return asked.map((_, i) => found.get(i + 1) ?? { activeDays: 0, totalSent: 0 });
      }).submit({ setorId, beforeDay });
    }
    const row = await this.db
      .selectFrom('usage_daily')
      .select((eb) => [eb.fn.countAll<number>().as('days'), eb.fn.coalesce(eb.fn.sum<number>('sent'), sql<number>`0`).as('total')])
      .where('scope', '=', 'setor')
      .where('scope_id', '=', setorId)
      .where('day', '<', beforeDay)
      .where('sent', '>', 0)
      .executeTakeFirstOrThrow();
    return { activeDays: Number(row.days), totalSent: Number(row.total) };
  }
}
