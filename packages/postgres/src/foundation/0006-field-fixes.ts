import { sql, type Kysely } from 'kysely';

/**
 * Fixes found in the field. Forward-only: a released migration is never edited, a new one is added.
 *
 * `companies.default_country`: the ISO 3166-1 alpha-2 country of phone numbers written without
 * their country code (`11 98765-4321` is Brazilian for a company in BR). Existing companies get
 * Brazil, the default of new ones.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE companies
      ADD COLUMN default_country text NOT NULL DEFAULT 'BR'
      CHECK (default_country ~ '^[A-Z]{2}$');
  `.execute(db);
}
