import { sql, type Kysely } from 'kysely';
import { partitionByTime } from '../shared/partition-by-time.js';

/**
 * The simulator's outbox becomes daily range partitions of `sent_at` (UTC days; see "Growth" in
 * docs/scaling.md), dropped a day at a time by housekeeping (its retention is a week).
 *
 * A re-sent message (a lane retrying after a crash, with the same client message id) must find the
 * original and not be delivered twice. On a partitioned table a unique index must contain the
 * partition key, and a re-send has a later `sent_at`, so `(client_message_id, sent_at)` would let
 * the duplicate in. The uniqueness therefore moves to `simulator_message_keys`, a narrow
 * unpartitioned table (the id and the original's `sent_at`): the outbox row is written only by
 * the statement whose key insert won, and the key leads to the original's partition. Keys are
 * deleted after their message's partition has been dropped.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE simulator_message_keys (
      client_message_id text PRIMARY KEY,
      sent_at timestamptz NOT NULL
    );
    INSERT INTO simulator_message_keys (client_message_id, sent_at) SELECT client_message_id, sent_at FROM simulator_messages;
    CREATE INDEX simulator_message_keys_sent_idx ON simulator_message_keys (sent_at);
  `.execute(db);
  await partitionByTime(db, {
    table: 'simulator_messages',
    column: 'sent_at',
    primaryKey: ['seq', 'sent_at'],
    uniques: [
      ['client_message_id', 'sent_at'],
      ['id', 'sent_at'],
    ],
  });
}
