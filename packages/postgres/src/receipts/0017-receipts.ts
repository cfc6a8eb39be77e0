import { sql, type Kysely } from 'kysely';

/**
 * Delivery and read receipts (conversations.md §3): a message's status may be received (inbound),
 * delivered or read; campaign messages get their own timestamps
 * (single sends got theirs with the tickets migration); both tables are found by the provider's
 * message id. The simulator's outbox remembers which successful sends still owe their delivery
 * receipt (`SIMULATOR_RECEIPT_DELAY_MS`): rows written before this migration owe none.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Single sends move on to delivered and read; inbound messages (0015-tickets) are received.
    ALTER TABLE messages DROP CONSTRAINT IF EXISTS messages_status_check;
    ALTER TABLE messages ADD CONSTRAINT messages_status_check CHECK (status IN ('pending', 'sent', 'failed', 'received', 'delivered', 'read'));
    ALTER TABLE campaign_messages ADD COLUMN delivered_at timestamptz, ADD COLUMN read_at timestamptz;
    CREATE INDEX campaign_messages_provider_idx ON campaign_messages (provider_message_id) WHERE provider_message_id IS NOT NULL;
    CREATE INDEX messages_outbound_provider_idx ON messages (provider_message_id) WHERE provider_message_id IS NOT NULL;
    ALTER TABLE simulator_messages ADD COLUMN receipt_pending boolean NOT NULL DEFAULT false;
    ALTER TABLE simulator_messages ALTER COLUMN receipt_pending SET DEFAULT true;
    CREATE INDEX simulator_messages_receipt_idx ON simulator_messages (sent_at) WHERE receipt_pending AND outcome = 'sent' AND NOT (payload ? 'operation');
  `.execute(db);
}
