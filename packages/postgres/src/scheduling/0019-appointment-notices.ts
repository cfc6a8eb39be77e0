import { sql, type Kysely } from 'kysely';

/**
 * Appointment notices: the message a reschedule or a cancellation sends the client when asked
 * (`notify: true`), a timed send of its own kind beside scheduled messages and reminders, sent by
 * the box's lane like them. Forward-only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE scheduled_messages DROP CONSTRAINT scheduled_messages_kind_check;
    ALTER TABLE scheduled_messages ADD CONSTRAINT scheduled_messages_kind_check CHECK (kind IN ('message', 'reminder', 'notice'));
  `.execute(db);
}
