import { sql, type Kysely } from 'kysely';

/**
 * Leads (business.md §5): searches with their leads (kept 7 days), and the 7-day cache of the
 * channel's number check. Forward-only: a released migration is never edited, a new one is added.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE lead_searches (
      id uuid PRIMARY KEY,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      api_key_id uuid NOT NULL,
      mode text NOT NULL CHECK (mode IN ('live', 'test')),
      status text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed')),
      criteria jsonb NOT NULL,
      source text NOT NULL,
      returned integer NOT NULL DEFAULT 0 CHECK (returned >= 0),
      total integer NOT NULL DEFAULT 0 CHECK (total >= 0),
      credits_used integer NOT NULL DEFAULT 0 CHECK (credits_used >= 0),
      dataset_month text,
      cursor text,
      pages_read integer NOT NULL DEFAULT 0,
      error text,
      created_at timestamptz NOT NULL,
      started_at timestamptz,
      completed_at timestamptz,
      expires_at timestamptz NOT NULL
    );
    CREATE INDEX lead_searches_company_idx ON lead_searches (company_id, created_at) WHERE mode = 'live';
    CREATE INDEX lead_searches_expires_idx ON lead_searches (expires_at);

    CREATE TABLE lead_search_items (
      search_id uuid NOT NULL REFERENCES lead_searches(id) ON DELETE CASCADE,
      position integer NOT NULL CHECK (position >= 0),
      lead jsonb NOT NULL,
      PRIMARY KEY (search_id, position)
    );

    CREATE TABLE lead_channel_checks (
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      setor_id uuid NOT NULL,
      phone text NOT NULL,
      has_channel boolean,
      checked_at timestamptz NOT NULL,
      PRIMARY KEY (company_id, setor_id, phone)
    );
  `.execute(db);
}
