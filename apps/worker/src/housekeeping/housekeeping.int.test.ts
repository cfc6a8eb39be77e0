import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { Queues } from '@carteiro/pgboss';
import { createTestWorker, eventually, type TestWorker } from '../testing/test-worker.js';

let worker: TestWorker;
beforeAll(async () => {
  worker = await createTestWorker();
});
afterAll(() => worker.close());

it('purges rate-limit windows that ended, through a real pg-boss job', async () => {
  const { db } = worker.database;
  const old = new Date(Date.now() - 10 * 60_000);
  const current = new Date(Math.floor(Date.now() / 60_000) * 60_000);
  await db
    .insertInto('rate_limit_counters')
    .values([
      { bucket: 'key:old', window_start: old, count: 3 },
      { bucket: 'key:current', window_start: current, count: 1 },
    ])
    .execute();

  await worker.boss.send(Queues.housekeeping, {});

  await eventually(async () => {
    const rows = await db.selectFrom('rate_limit_counters').select('bucket').execute();
    return rows.length === 1 && rows[0]?.bucket === 'key:current';
  });
  const schedules = await worker.boss.getSchedules();
  expect(schedules.map((s) => s.name)).toContain(Queues.housekeeping);
});
