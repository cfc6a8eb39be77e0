import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { createCompany } from '@carteiro/core';
import { ensurePartitions, KyselyUnitOfWork, listPartitions, PARTITION_DAYS_AHEAD, partitionNameAt, TIME_PARTITIONED_TABLES } from '@carteiro/postgres';
import { ContainerModule } from 'inversify';
import { sql } from 'kysely';
import { HOUSEKEEPING_QUEUE, HousekeepingSettings } from './housekeeping.job.js';
import { createTestWorker, eventually, type TestWorker } from '../testing/test-worker.js';

const DAY = 86_400_000;
let worker: TestWorker;
beforeAll(async () => {
  worker = await createTestWorker({
    overrides: [new ContainerModule(({ bind }) => void bind<HousekeepingSettings>(HousekeepingSettings).toConstantValue({ campaignMessageRetentionDays: 90 }))],
  });
});
afterAll(() => worker.close());

it('creates the coming week of partitions and drops the days past retention, through a real pg-boss job', async () => {
  const { db } = worker.database;
  const now = new Date();
  const lastAhead = new Date(now.getTime() + PARTITION_DAYS_AHEAD * DAY);
  // As if housekeeping had not run for a while: the partition a week ahead is missing everywhere.
  for (const { table } of TIME_PARTITIONED_TABLES) await sql`DROP TABLE ${sql.id(partitionNameAt(table, lastAhead))}`.execute(db);
  // A week past the 30-day retention, whose event the fan-out has taken.
  const old = new Date(now.getTime() - 45 * DAY);
  const events = TIME_PARTITIONED_TABLES.find((t) => t.table === 'domain_events')!;
  await ensurePartitions(db, events, old, old);
  const id = crypto.randomUUID();
  await db
    .insertInto('domain_events')
    .values({ id, event: 'contact.created', company_id: crypto.randomUUID(), setor_id: null, occurred_at: new Date(old.getTime() + 60_000), data: JSON.stringify({}), actor: JSON.stringify({ user_id: null, source: 'system' }), callback_url: null })
    .execute();
  await eventually(async () => (await db.selectFrom('webhook_event_queue').select('seq').execute()).length === 0);

  await worker.boss.send(HOUSEKEEPING_QUEUE, {});

  await eventually(async () => {
    for (const { table } of TIME_PARTITIONED_TABLES) {
      if (!(await listPartitions(db, table)).some((p) => p.name === partitionNameAt(table, lastAhead))) return false;
    }
    return true;
  });
  await eventually(async () => !(await listPartitions(db, 'domain_events')).some((p) => p.name === partitionNameAt('domain_events', old)));
  expect(await db.selectFrom('domain_events').select('id').where('id', '=', id).execute()).toEqual([]);
});

it('deletes the recipients of campaigns finished before CAMPAIGN_MESSAGE_RETENTION_DAYS, keeping the campaign', async () => {
  const { db } = worker.database;
  const now = new Date();
  const company = crypto.randomUUID();
  await new KyselyUnitOfWork(db).transaction((tx) => tx.companies.insert(createCompany(company, now, { name: 'Retention' })));
  const campaign = async (finishedDaysAgo: number) => {
    const id = crypto.randomUUID();
    const setor = crypto.randomUUID();
    await sql`
      INSERT INTO campaigns (id, company_id, mode, name, status, content, anti_ban_level, distribution, distribution_mode, setor_ids, execution_mode,
        total, enviados, created_at, updated_at, finished_at)
      VALUES (${id}, ${company}, 'live', 'c', 'concluido', '{"text":"oi"}', 'normal', 'round_robin', 'auto', ARRAY[${setor}]::uuid[], 'immediate',
        2, 2, ${now}, ${now}, ${new Date(now.getTime() - finishedDaysAgo * DAY)})
    `.execute(db);
    await sql`
      INSERT INTO campaign_messages (id, campaign_id, company_id, seq, phone, status, assigned_setor_id, setor_id, created_at, updated_at)
      SELECT gen_random_uuid(), ${id}, ${company}, n, '+5511900000' || n, 'enviado', ${setor}, ${setor}, ${now}, ${now} FROM generate_series(1, 2) AS n
    `.execute(db);
    return id;
  };
  const old = await campaign(91);
  const recent = await campaign(89);
  const recipients = async (id: string) => (await db.selectFrom('campaign_messages').select('id').where('campaign_id', '=', id).execute()).length;

  await worker.boss.send(HOUSEKEEPING_QUEUE, {});

  await eventually(async () => (await recipients(old)) === 0);
  expect(await recipients(recent)).toBe(2);
  const kept = await db.selectFrom('campaigns').select(['enviados', 'messages_purged_at']).where('id', '=', old).executeTakeFirstOrThrow();
  expect(kept.enviados).toBe(2);
  expect(kept.messages_purged_at).not.toBeNull();
});
