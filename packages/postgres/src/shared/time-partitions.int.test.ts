import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { SimulatedMessage } from '@carteiro/core';
import { sql } from 'kysely';
import { KyselyChannelSimulatorStore } from '../channel/kysely-channel-simulator-store.js';
import { createTestDatabase, type TestDatabase } from '../testing/test-database.js';
import { KyselyWebhookDeliveryRepository } from '../webhooks/kysely-webhook-repositories.js';
import { KyselyEventOutbox } from './kysely-event-outbox.js';
import { ensurePartitions, ensureTimePartitions, listPartitions, PARTITION_DAYS_AHEAD, partitionNameAt, TIME_PARTITIONED_TABLES } from './time-partitions.js';

const DAY = 86_400_000;
const utcDay = (at: Date) => new Date(Math.floor(at.getTime() / DAY) * DAY);
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.destroy());

const company = crypto.randomUUID();

async function partitionOf(table: string, column: string, value: string): Promise<string[]> {
  const { rows } = await sql<{ part: string }>`SELECT tableoid::regclass::text AS part FROM ${sql.id(table)} WHERE ${sql.id(column)} = ${value}`.execute(database.db);
  return rows.map((r) => r.part);
}

async function recordEvent(at: Date): Promise<string> {
  const id = crypto.randomUUID();
  await new KyselyEventOutbox(database.db).record([
    { id, event: 'contact.created', companyId: company, setorId: null, occurredAt: at, data: {}, actor: { user_id: null, source: 'system' } },
  ]);
  return id;
}

async function insertDelivery(at: Date, status: 'pending' | 'succeeded'): Promise<string> {
  const id = crypto.randomUUID();
  await database.db
    .insertInto('webhook_deliveries')
    .values({
      id,
      company_id: company,
      webhook_id: null,
      callback_url: 'https://cb.example.com/',
      event_id: crypto.randomUUID(),
      event: 'message.sent',
      payload: '{}',
      status,
      attempts: 1,
      round_attempts: 1,
      next_attempt_at: status === 'pending' ? at : null,
      created_at: at,
      updated_at: at,
      completed_at: status === 'pending' ? null : at,
    })
    .execute();
  await database.db
    .insertInto('webhook_attempts')
    .values({ delivery_id: id, delivery_created_at: at, number: 1, started_at: at, duration_ms: 3, status_code: 500, error: null, result: 'retry' })
    .execute();
  return id;
}

const simulated = (clientMessageId: string, sentAt: Date): SimulatedMessage => ({
  id: crypto.randomUUID(),
  clientMessageId,
  companyId: company,
  setorId: crypto.randomUUID(),
  instanceId: crypto.randomUUID(),
  from: '+5511911112222',
  to: '+5511900000001',
  kind: 'text',
  text: 'hello',
  mediaUrl: null,
  mediaType: null,
  mediaFilename: null,
  templateName: null,
  payload: { kind: 'text', text: 'hello' },
  outcome: 'sent',
  errorCode: null,
  error: null,
  providerFailure: false,
  sentAt,
});

describe('time partitions', () => {
  it('creates the coming week ahead of time, and a day nobody created takes its rows out of the default partition', async () => {
    const far = new Date(utcDay(new Date()).getTime() + 60 * DAY + 3_600_000);
    // No partition for that day yet: the insert does not fail, the default partition takes the row.
    const event = await recordEvent(far);
    const delivery = await insertDelivery(far, 'succeeded');
    const store = new KyselyChannelSimulatorStore(database.db);
    const clientId = `far-${crypto.randomUUID()}`;
    expect((await store.recordMessage(simulated(clientId, far))).created).toBe(true);
    expect(await partitionOf('domain_events', 'id', event)).toEqual(['domain_events_default']);
    expect(await partitionOf('webhook_deliveries', 'id', delivery)).toEqual(['webhook_deliveries_default']);
    expect(await partitionOf('webhook_attempts', 'delivery_id', delivery)).toEqual(['webhook_attempts_default']);
    expect(await partitionOf('simulator_messages', 'client_message_id', clientId)).toEqual(['simulator_messages_default']);

    expect(await ensureTimePartitions(database.db, far)).toBeGreaterThanOrEqual(TIME_PARTITIONED_TABLES.length);
    expect(await partitionOf('domain_events', 'id', event)).toEqual([partitionNameAt('domain_events', far)]);
    expect(await partitionOf('webhook_deliveries', 'id', delivery)).toEqual([partitionNameAt('webhook_deliveries', far)]);
    expect(await partitionOf('webhook_attempts', 'delivery_id', delivery)).toEqual([partitionNameAt('webhook_attempts', far)]);
    expect(await partitionOf('simulator_messages', 'client_message_id', clientId)).toEqual([partitionNameAt('simulator_messages', far)]);
    // Every instant from yesterday to a week ahead has its partition (weeks or days, by table).
    for (const { table } of TIME_PARTITIONED_TABLES) {
      const names = (await listPartitions(database.db, table)).map((p) => p.name);
      for (let d = -1; d <= PARTITION_DAYS_AHEAD; d++) expect(names).toContain(partitionNameAt(table, new Date(far.getTime() + d * DAY)));
      const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.id(`${table}_default`)}`.execute(database.db);
      expect(rows[0]?.n).toBe(0);
    }
    // Nothing left to create: a second run (every minute) is a catalogue read.
    expect(await ensureTimePartitions(database.db, far)).toBe(0);
    // The moved rows are still found through their keys.
    expect((await store.findByClientMessageId(clientId))?.sentAt).toEqual(far);
  });

  it('drops the partitions past retention, but keeps a week whose events the fan-out has not taken or whose delivery is pending', async () => {
    const now = new Date();
    // Two consecutive weeks (and their days), both wholly older than the 30-day retention.
    const d1 = new Date(utcDay(now).getTime() - 50 * DAY);
    const d2 = new Date(d1.getTime() + 7 * DAY);
    for (const spec of TIME_PARTITIONED_TABLES) await ensurePartitions(database.db, spec, d1, d2);
    const retention = new Date(now.getTime() - 30 * DAY);

    const taken = await recordEvent(new Date(d1.getTime() + 3_600_000));
    const waiting = await recordEvent(new Date(d2.getTime() + 3_600_000));
    await sql`DELETE FROM webhook_event_queue q USING domain_events e WHERE e.seq = q.seq AND e.id = ${taken}`.execute(database.db);
    const outbox = new KyselyEventOutbox(database.db);
    await outbox.purgeBefore(retention);
    let names = (await listPartitions(database.db, 'domain_events')).map((p) => p.name);
    expect(names).not.toContain(partitionNameAt('domain_events', d1));
    expect(names).toContain(partitionNameAt('domain_events', d2));
    expect(await partitionOf('domain_events', 'id', taken)).toEqual([]);
    expect(await partitionOf('domain_events', 'id', waiting)).toEqual([partitionNameAt('domain_events', d2)]);
    await sql`DELETE FROM webhook_event_queue`.execute(database.db);
    await outbox.purgeBefore(retention);
    names = (await listPartitions(database.db, 'domain_events')).map((p) => p.name);
    expect(names).not.toContain(partitionNameAt('domain_events', d2));
    expect(names).toContain(partitionNameAt('domain_events', now));

    const done = await insertDelivery(new Date(d1.getTime() + 60_000), 'succeeded');
    const pending = await insertDelivery(new Date(d2.getTime() + 60_000), 'pending');
    const deliveries = new KyselyWebhookDeliveryRepository(database.db);
    await deliveries.purgeFinishedBefore(retention);
    expect(await partitionOf('webhook_deliveries', 'id', done)).toEqual([]);
    expect(await partitionOf('webhook_attempts', 'delivery_id', done)).toEqual([]);
    expect(await partitionOf('webhook_deliveries', 'id', pending)).toEqual([partitionNameAt('webhook_deliveries', d2)]);
    expect(await partitionOf('webhook_attempts', 'delivery_id', pending)).toEqual([partitionNameAt('webhook_attempts', d2)]);
    expect((await listPartitions(database.db, 'webhook_attempts')).map((p) => p.name)).not.toContain(partitionNameAt('webhook_attempts', d1));
    await database.db.updateTable('webhook_deliveries').set({ status: 'failed', completed_at: now }).where('id', '=', pending).execute();
    await deliveries.purgeFinishedBefore(retention);
    expect(await partitionOf('webhook_deliveries', 'id', pending)).toEqual([]);
    expect(await partitionOf('webhook_attempts', 'delivery_id', pending)).toEqual([]);

    // The simulator's outbox: partitions go, and the keys of the messages gone with them; a message still kept keeps its key.
    const store = new KyselyChannelSimulatorStore(database.db);
    const old = `old-${crypto.randomUUID()}`;
    const recent = `recent-${crypto.randomUUID()}`;
    const oldMessage = simulated(old, new Date(d1.getTime() + 60_000));
    const recentMessage = simulated(recent, now);
    await store.recordMessage(oldMessage);
    await store.recordMessage(recentMessage);
    await store.purgeMessagesBefore(new Date(now.getTime() - 7 * DAY));
    expect(await store.findByClientMessageId(old)).toBeNull();
    // The receipt it still owed goes with it (receipts turned off or never settled); the recent one's stays.
    const owed = await database.db.selectFrom('simulator_receipts_owed').select('id').where('id', 'in', [oldMessage.id, recentMessage.id]).execute();
    expect(owed).toEqual([{ id: recentMessage.id }]);
    expect((await database.db.selectFrom('simulator_message_keys').select('client_message_id').where('client_message_id', '=', old).execute()).length).toBe(0);
    expect((await store.findByClientMessageId(recent))?.clientMessageId).toBe(recent);
    expect((await store.recordMessage(simulated(recent, new Date(now.getTime() + 1000)))).created).toBe(false);
  });

  it('stores a message re-sent across midnight once: the uniqueness lives in the unpartitioned keys', async () => {
    const midnight = new Date(utcDay(new Date()).getTime() + DAY);
    const store = new KyselyChannelSimulatorStore(database.db);
    const clientId = `midnight-${crypto.randomUUID()}`;
    const first = simulated(clientId, new Date(midnight.getTime() - 100));
    expect(await store.recordMessage(first)).toEqual({ message: first, created: true });
    // The re-send (a lane retrying after a crash) lands in the next day's partition if it were stored.
    const again = await store.recordMessage(simulated(clientId, new Date(midnight.getTime() + 100)));
    expect(again).toEqual({ message: first, created: false });
    // Concurrent copies in one batch: the first wins.
    const a = simulated(`batch-${crypto.randomUUID()}`, new Date(midnight.getTime() - 50));
    const b = { ...a, id: crypto.randomUUID(), sentAt: new Date(midnight.getTime() + 50) };
    const [ra, rb] = await Promise.all([store.recordMessage(a), store.recordMessage(b)]);
    expect(ra).toEqual({ message: a, created: true });
    expect(rb).toEqual({ message: a, created: false });
    for (const id of [clientId, a.clientMessageId]) expect(await partitionOf('simulator_messages', 'client_message_id', id)).toHaveLength(1);
  });
});
