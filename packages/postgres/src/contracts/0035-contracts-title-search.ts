import { sql, type Kysely } from 'kysely';

/**
 * `GET /v1/contracts?search=` matches part of the title (`title ILIKE '%…%'`), which no index held: every search read
 * all of the company's contracts (found by the route-plan audit, apps/api/src/plans). A trigram index serves it as
 * `crm_opportunities_title_trgm_idx` serves the opportunities' search; contracts are written by people, not on a hot
 * path. Forward-only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE INDEX contracts_title_trgm_idx ON contracts USING gin (title gin_trgm_ops);
  `.execute(db);
}
