import { sql, type Kysely } from 'kysely';

/**
 * The ticket list's default filter (open, pending, snoozed) in activity order without walking past closed tickets:
 * in a company with a long history most rows of `tickets_activity_idx` are closed, and a page of active tickets
 * whose activity is older than many closings would filter thousands of index entries. Forward-only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE INDEX tickets_active_activity_idx ON tickets (company_id, last_activity_at DESC, id DESC) WHERE status <> 'closed';
  `.execute(db);
}
