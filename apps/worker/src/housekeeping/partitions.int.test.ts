import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { dayPartitionName, ensureDayPartitions, listDayPartitions, PARTITION_DAYS_AHEAD, TIME_PARTITIONED_TABLES, utcDay } from '@carteiro/postgres';
import { sql } from 'kysely';
import { HOUSEKEEPING_QUEUE } from './housekeeping.job.js';
import { createTestWorker, eventually, type TestWorker } from '../testing/test-worker.js';

const DAY = 86_400_000;
let worker: TestWorker;
beforeAll(async () => {
  worker = await createTestWorker();
});
afterAll(() => worker.close());

it('creates the coming week of partitions and drops the days past retention, through a real pg-boss job', async () => {
  const { db } = worker.database;
  const today = utcDay(new Date());
  const lastAhead = new Date(today.getTime() + PARTITION_DAYS_AHEAD * DAY);
  // As if housekeeping had not run for a day: the last day ahead is missing everywhere.
  for (const { table } of TIME_PARTITIONED_TABLES) await sql`DROP TABLE ${sql.id(dayPartitionName(table, lastAhead))}`.execute(db);
  // A day past the 30-day retention, whose event the fan-out has taken.
  const old = new Date(today.getTime() - 45 * DAY);
  const events = TIME_PARTITIONED_TABLES.find((t) => t.table === 'domain_events')!;
  await ensureDayPartitions(db, events, old, old);
  const id = crypto.randomUUID();
  await db
    .insertInto('domain_events')
    .values({ id, event: 'contact.created', company_id: crypto.randomUUID(), setor_id: null, occurred_at: new Date(old.getTime() + 60_000), data: JSON.stringify({}), actor: JSON.stringify({ user_id: null, source: 'system' }), callback_url: null })
    .execute();
  await eventually(async () => (await db.selectFrom('webhook_event_queue').select('seq').execute()).length === 0);

  await worker.boss.send(HOUSEKEEPING_QUEUE, {});

  await eventually(async () => {
    for (const { table } of TIME_PARTITIONED_TABLES) {
      if (!(await listDayPartitions(db, table)).some((p) => p.name === dayPartitionName(table, lastAhead))) return false;
    }
    return true;
  });
  await eventually(async () => !(await listDayPartitions(db, 'domain_events')).some((p) => p.name === dayPartitionName('domain_events', old)));
  expect(await db.selectFrom('domain_events').select('id').where('id', '=', id).execute()).toEqual([]);
});
