import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { createCompany } from '@carteiro/core';
import { sql } from 'kysely';
import { KyselyUnitOfWork } from '../kysely-unit-of-work.js';
import { createTestDatabase, type TestDatabase } from '../testing/test-database.js';
import { purgeMessagesOfFinishedCampaigns } from './campaign-message-retention.js';

const DAY = 86_400_000;
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.destroy());

it('deletes the recipients of campaigns finished before the retention, a few campaigns per run, and keeps the campaigns and their counters', async () => {
  const { db } = database;
  const now = new Date();
  const company = crypto.randomUUID();
  await new KyselyUnitOfWork(db).transaction((tx) => tx.companies.insert(createCompany(company, now, { name: 'Retention' })));
  const campaign = async (status: string, finishedDaysAgo: number | null) => {
    const id = crypto.randomUUID();
    const setor = crypto.randomUUID();
    const finished = finishedDaysAgo === null ? null : new Date(now.getTime() - finishedDaysAgo * DAY);
    await sql`
      INSERT INTO campaigns (id, company_id, mode, name, status, content, anti_ban_level, distribution, distribution_mode, setor_ids, execution_mode,
        total, enviados, created_at, updated_at, finished_at)
      VALUES (${id}, ${company}, 'live', 'c', ${status}, '{"text":"oi"}', 'normal', 'round_robin', 'auto', ARRAY[${setor}]::uuid[], 'immediate',
        3, ${status === 'concluido' ? 3 : 0}, ${now}, ${now}, ${finished})
    `.execute(db);
    await sql`
      INSERT INTO campaign_messages (id, campaign_id, company_id, seq, phone, status, assigned_setor_id, setor_id, created_at, updated_at)
      SELECT gen_random_uuid(), ${id}, ${company}, n, '+5511900000' || n, ${status === 'concluido' ? 'enviado' : 'pendente'}, ${setor}, ${setor}, ${now}, ${now}
      FROM generate_series(1, 3) AS n
    `.execute(db);
    return id;
  };
  const oldest = await campaign('concluido', 200);
  const old = await campaign('falha', 120);
  const recent = await campaign('concluido', 10);
  const running = await campaign('processando', null);
  const recipients = async (id: string) => (await db.selectFrom('campaign_messages').select('id').where('campaign_id', '=', id).execute()).length;

  const before = new Date(now.getTime() - 90 * DAY);
  // One campaign per run here: the oldest first.
  expect(await purgeMessagesOfFinishedCampaigns(db, before, now, 1)).toBe(3);
  expect([await recipients(oldest), await recipients(old)]).toEqual([0, 3]);
  expect(await purgeMessagesOfFinishedCampaigns(db, before, now, 1)).toBe(3);
  expect(await purgeMessagesOfFinishedCampaigns(db, before, now, 1)).toBe(0);
  expect([await recipients(oldest), await recipients(old), await recipients(recent), await recipients(running)]).toEqual([0, 0, 3, 3]);
  const rows = await db.selectFrom('campaigns').select(['id', 'enviados', 'messages_purged_at']).where('id', 'in', [oldest, recent]).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  expect(byId.get(oldest)?.enviados).toBe(3);
  expect(byId.get(oldest)?.messages_purged_at).toEqual(now);
  expect(byId.get(recent)?.messages_purged_at).toBeNull();
});
