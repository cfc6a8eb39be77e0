import { sql, type Kysely } from 'kysely';

/**
 * `messages_report_idx` (0012: company_id, created_at INCLUDE status, setor_id) serves every scan `messages_company_idx`
 * (0003: company_id, created_at) served, with the same keys in the same order: the narrower one only cost a write for
 * each message stored (every send and every inbound message). Forward-only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS messages_company_idx`.execute(db);
}
