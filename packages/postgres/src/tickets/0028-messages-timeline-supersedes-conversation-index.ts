import { sql, type Kysely } from 'kysely';

/**
 * `messages_conversation_timeline_idx` (0015: conversation_id, created_at, id) serves every scan
 * `messages_conversation_idx` (0003: conversation_id, created_at) served, and its keyset too: the narrower one only
 * cost a write for each message stored (every send and every inbound message). Forward-only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS messages_conversation_idx`.execute(db);
}
