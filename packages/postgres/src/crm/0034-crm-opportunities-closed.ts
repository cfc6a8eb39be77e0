import { sql, type Kysely } from 'kysely';

/**
 * The summary report counts the opportunities won and lost in its period by `closed_at`, which no index held: it read
 * every opportunity of the company (found by the route-plan audit, apps/api/src/plans). Only closed opportunities are
 * indexed; opportunities are written by people, not on a hot path. Forward-only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE INDEX crm_opportunities_closed_idx ON crm_opportunities (company_id, closed_at) WHERE closed_at IS NOT NULL AND deleted_at IS NULL;
  `.execute(db);
}
