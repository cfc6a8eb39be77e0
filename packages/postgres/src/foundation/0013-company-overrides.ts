import { sql, type Kysely } from 'kysely';

/**
 * `companies.quota_overrides`: the operator's overrides of the plan quotas (business.md §0 "admin
 * overrides", `PATCH /admin/v1/companies/:id` `quotas`), quota name → limit; a quota not named takes
 * the plan's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE companies
      ADD COLUMN quota_overrides jsonb NOT NULL DEFAULT '{}'::jsonb
      CHECK (jsonb_typeof(quota_overrides) = 'object');
  `.execute(db);
}
