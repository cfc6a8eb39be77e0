import type { UsageRepository } from '@carteiro/core';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../shared/database.js';

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
    return this.sent('setor', setorId, day);
  }

  async setorHistory(setorId: string, beforeDay: string): Promise<{ activeDays: number; totalSent: number }> {
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
