import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { sql, type Kysely } from 'kysely';
import { migrateToLatest } from '../db.js';
import { createTestDatabaseBefore, type TestDatabase } from '../testing/test-database.js';
import type { Database } from './database.js';
import { partitionNameAt } from './time-partitions.js';

// A database of its own, migrated only up to the partitioning, so that 0016 meets existing rows.
let database: TestDatabase;
let db: Kysely<Database>;

beforeAll(async () => {
  database = await createTestDatabaseBefore('0016');
  db = database.db;
});
afterAll(async () => {
  await database?.destroy();
});

const DAY = 86_400_000;

it('moves existing events, queued events, deliveries with attempts and simulator messages into their partitions, keeping keys, sequences and the trigger', async () => {
  const company = crypto.randomUUID();
  const now = new Date();
  const old = new Date(now.getTime() - 20 * DAY);
  const days = [old, now];
  const eventIds = days.map(() => crypto.randomUUID());
  const deliveryIds = days.map(() => crypto.randomUUID());
  const clientIds = days.map((_, i) => `client-${i}-${crypto.randomUUID()}`);
  await sql`
    INSERT INTO domain_events (id, event, company_id, setor_id, occurred_at, data, actor)
    SELECT id, 'contact.created', ${company}, NULL, at, '{}', '{"user_id":null,"source":"system"}'
    FROM unnest(${eventIds}::uuid[], ${days}::timestamptz[]) AS x(id, at)
  `.execute(db);
  // The fan-out took the old event; the recent one still waits in the queue.
  await sql`DELETE FROM webhook_event_queue q USING domain_events e WHERE e.seq = q.seq AND e.id = ${eventIds[0]}`.execute(db);
  await sql`
    INSERT INTO webhook_deliveries (id, company_id, webhook_id, callback_url, event_id, event, payload, status, attempts, round_attempts,
      next_attempt_at, created_at, updated_at, completed_at)
    SELECT id, ${company}, NULL, 'https://cb.example.com/', gen_random_uuid(), 'message.sent', '{}', 'succeeded', 1, 1, NULL, at, at, at
    FROM unnest(${deliveryIds}::uuid[], ${days}::timestamptz[]) AS x(id, at)
  `.execute(db);
  await sql`
    INSERT INTO webhook_attempts (delivery_id, number, started_at, duration_ms, status_code, error, result)
    SELECT id, 1, created_at, 5, 200, NULL, 'succeeded' FROM webhook_deliveries
  `.execute(db);
  await sql`
    INSERT INTO simulator_messages (id, client_message_id, company_id, setor_id, instance_id, to_number, to_digits, kind, payload, outcome, sent_at)
    SELECT gen_random_uuid(), cid, ${company}, gen_random_uuid(), gen_random_uuid(), '+5511900000001', '5511900000001', 'text', '{}', 'sent', at
    FROM unnest(${clientIds}::text[], ${days}::timestamptz[]) AS x(cid, at)
  `.execute(db);
  const maxSeq = (await sql<{ seq: number }>`SELECT max(seq)::int AS seq FROM domain_events`.execute(db)).rows[0]!.seq;

  await migrateToLatest(db);

  const partitions = async (table: string, column: string, values: readonly string[]) =>
    (await sql<{ part: string }>`SELECT tableoid::regclass::text AS part FROM ${sql.id(table)} WHERE ${sql.id(column)}::text = ANY (${values}::text[]) ORDER BY ${sql.id(column)}`.execute(db)).rows.map((r) => r.part);
  const expected = (table: string) => days.map((d) => partitionNameAt(table, d)).sort();
  expect((await partitions('domain_events', 'id', eventIds)).sort()).toEqual(expected('domain_events'));
  expect((await partitions('webhook_deliveries', 'id', deliveryIds)).sort()).toEqual(expected('webhook_deliveries'));
  expect((await partitions('webhook_attempts', 'delivery_id', deliveryIds)).sort()).toEqual(expected('webhook_attempts'));
  expect((await partitions('simulator_messages', 'client_message_id', clientIds)).sort()).toEqual(expected('simulator_messages'));

  // The queue knows its event's day; the attempts their delivery's; every simulator message has its key.
  const queued = await db.selectFrom('webhook_event_queue').selectAll().execute();
  expect(queued.map((q) => new Date(q.occurred_at).getTime())).toEqual([now.getTime()]);
  const attempts = await db.selectFrom('webhook_attempts').select(['delivery_id', 'delivery_created_at']).orderBy('delivery_created_at').execute();
  expect(attempts.map((a) => new Date(a.delivery_created_at).getTime())).toEqual(days.map((d) => d.getTime()));
  expect((await db.selectFrom('simulator_message_keys').select('client_message_id').execute()).map((k) => k.client_message_id).sort()).toEqual([...clientIds].sort());

  // Keys with the partition key: a second event with the same id on the same instant is refused; the sequence goes on.
  await expect(sql`INSERT INTO domain_events (id, event, company_id, occurred_at, data, actor) VALUES (${eventIds[1]}, 'x', ${company}, ${now}, '{}', '{}')`.execute(db)).rejects.toThrow(/duplicate key/);
  await expect(
    sql`INSERT INTO webhook_deliveries SELECT * FROM webhook_deliveries WHERE id = ${deliveryIds[1]}`.execute(db),
  ).rejects.toThrow(/duplicate key/);
  const fresh = crypto.randomUUID();
  await sql`INSERT INTO domain_events (id, event, company_id, occurred_at, data, actor) VALUES (${fresh}, 'contact.created', ${company}, ${now}, '{}', '{}')`.execute(db);
  const row = (await sql<{ seq: number }>`SELECT seq::int AS seq FROM domain_events WHERE id = ${fresh}`.execute(db)).rows[0]!;
  expect(row.seq).toBeGreaterThan(maxSeq);
  // The outbox trigger still queues new events, with their day.
  expect((await db.selectFrom('webhook_event_queue').select('seq').where('seq', '=', row.seq).execute()).length).toBe(1);
  // Indexes of the old tables exist again on the partitioned ones.
  const { rows: indexes } = await sql<{ name: string }>`SELECT indexname AS name FROM pg_indexes WHERE tablename IN ('domain_events', 'webhook_deliveries', 'simulator_messages')`.execute(db);
  expect(indexes.map((i) => i.name)).toEqual(
    expect.arrayContaining(['domain_events_company_idx', 'domain_events_report_idx', 'webhook_deliveries_due_idx', 'webhook_deliveries_log_idx', 'simulator_messages_to_idx']),
  );
});
