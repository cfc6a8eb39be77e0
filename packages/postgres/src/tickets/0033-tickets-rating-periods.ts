import { sql, type Kysely } from 'kysely';

/**
 * The ratings of a period without reading every ticket of the company (found by the route-plan audit,
 * apps/api/src/plans): `GET /v1/ratings` selects tickets by `coalesce(rating_requested_at, rated_at)` and the summary
 * report's CSAT by `rated_at` of rated tickets, and no index held either, so both read the company's whole ticket
 * history. `tickets` is written on the inbound path, so both indexes are partial: they hold only tickets whose rating
 * was requested or given (closed tickets, rarely written again), and an open ticket's writes never touch them.
 * Forward-only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE INDEX tickets_rating_period_idx ON tickets (company_id, (coalesce(rating_requested_at, rated_at)))
      WHERE coalesce(rating_requested_at, rated_at) IS NOT NULL;
    CREATE INDEX tickets_rated_idx ON tickets (company_id, rated_at) WHERE rating_score IS NOT NULL;
  `.execute(db);
}
