import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { HOUSEKEEPING_QUEUE } from './housekeeping.job.js';
import { createTestWorker, eventually, type TestWorker } from '../testing/test-worker.js';

let worker: TestWorker;
beforeAll(async () => {
  worker = await createTestWorker();
});
afterAll(() => worker.close());

it('purges rate-limit windows that ended and month-old events, through a real pg-boss job', async () => {
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

  const company = crypto.randomUUID();
  const event = (id: string, occurredAt: Date) => ({
    id,
    event: 'contact.created',
    company_id: company,
    setor_id: null,
    occurred_at: occurredAt,
    data: JSON.stringify({}),
    actor: JSON.stringify({ user_id: null, source: 'system' }),
    callback_url: null,
  });
  const oldEvent = crypto.randomUUID();
  const recentEvent = crypto.randomUUID();
  await db.insertInto('domain_events').values([event(oldEvent, new Date(Date.now() - 40 * 86_400_000)), event(recentEvent, new Date())]).execute();
  // The webhook fan-out takes them first; only then may the outbox forget them.
  await eventually(async () => (await db.selectFrom('webhook_event_queue').select('seq').execute()).length === 0);

  await worker.boss.send(HOUSEKEEPING_QUEUE, {});

  await eventually(async () => {
    const rows = await db.selectFrom('rate_limit_counters').select('bucket').execute();
    return rows.length === 1 && rows[0]?.bucket === 'key:current';
  });
  await eventually(async () => {
    const events = await db.selectFrom('domain_events').select('id').where('company_id', '=', company).execute();
    return events.length === 1 && events[0]?.id === recentEvent;
  });
  const schedules = await worker.boss.getSchedules();
  expect(schedules.map((s) => s.name)).toContain(HOUSEKEEPING_QUEUE);
});
