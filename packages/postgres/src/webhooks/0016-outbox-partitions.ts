import { sql, type Kysely } from 'kysely';
import { partitionByTime } from '../shared/partition-by-time.js';

/**
 * The outbox and the delivery log become weekly range partitions (UTC weeks from Monday; see
 * "Growth" in docs/scaling.md), so that housekeeping drops a week of them at once instead of
 * deleting rows:
 *
 * - `domain_events` by `occurred_at`: primary key `(seq, occurred_at)`, unique `(id, occurred_at)`.
 *   Event ids are random UUIDs and nothing upserts on them, so the unique index only guards against
 *   a bug; the fan-out's exactly-once rests on `webhook_event_queue` (its row is deleted in the
 *   transaction that creates the deliveries), which stays one unpartitioned table keyed by `seq`.
 *   The queue now also carries the event's `occurred_at`, so that taking events reads one partition
 *   per event and housekeeping knows which weeks still hold events the fan-out has not taken.
 * - `webhook_deliveries` by `created_at`: primary key `(id, created_at)`. Delivery ids are random
 *   UUIDs made once by the fan-out; every later write names the delivery by id and creation time.
 * - `webhook_attempts` by its delivery's `created_at` (new column `delivery_created_at`), with the
 *   same weeks, so a week's attempts are dropped with that week's deliveries. The foreign key to
 *   deliveries cannot follow a dropped partition; attempts are only written while their delivery
 *   exists (`saveAttempts` checks it) and are read through it.
 *
 * Existing rows are copied into the partitions inside this migration's transaction.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE webhook_event_queue ADD COLUMN occurred_at timestamptz;
    UPDATE webhook_event_queue q SET occurred_at = e.occurred_at FROM domain_events e WHERE e.seq = q.seq;
    DELETE FROM webhook_event_queue WHERE occurred_at IS NULL;
    ALTER TABLE webhook_event_queue ALTER COLUMN occurred_at SET NOT NULL;
    CREATE INDEX webhook_event_queue_occurred_idx ON webhook_event_queue (occurred_at);

    CREATE OR REPLACE FUNCTION carteiro_queue_webhook_events() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO webhook_event_queue (seq, occurred_at) SELECT seq, occurred_at FROM inserted;
      PERFORM pg_notify('carteiro_webhooks', 'events');
      RETURN NULL;
    END
    $$;
  `.execute(db);
  await partitionByTime(db, { table: 'domain_events', column: 'occurred_at', primaryKey: ['seq', 'occurred_at'], uniques: [['id', 'occurred_at']] });

  await sql`
    ALTER TABLE webhook_attempts ADD COLUMN delivery_created_at timestamptz;
    UPDATE webhook_attempts a SET delivery_created_at = d.created_at FROM webhook_deliveries d WHERE d.id = a.delivery_id;
    DELETE FROM webhook_attempts WHERE delivery_created_at IS NULL;
    ALTER TABLE webhook_attempts ALTER COLUMN delivery_created_at SET NOT NULL;
  `.execute(db);
  await partitionByTime(db, {
    table: 'webhook_attempts',
    column: 'delivery_created_at',
    primaryKey: ['delivery_id', 'delivery_created_at', 'number'],
    dropForeignKeys: ['webhook_attempts_delivery_id_fkey'],
  });
  await partitionByTime(db, { table: 'webhook_deliveries', column: 'created_at', primaryKey: ['id', 'created_at'] });
}
