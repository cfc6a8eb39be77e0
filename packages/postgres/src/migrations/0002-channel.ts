import { sql, type Kysely } from 'kysely';

/** Channel sessions of boxes. Forward-only: a released migration is never edited, a new one is added. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE channel_instances (
      id uuid PRIMARY KEY,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      setor_id uuid NOT NULL UNIQUE REFERENCES setores(id) ON DELETE CASCADE,
      status text NOT NULL CHECK (status IN ('disconnected', 'connecting', 'connected')),
      phone_number text,
      provider_ref text,
      proxy_configured boolean NOT NULL DEFAULT false,
      qr_requested_at timestamptz,
      connected_at timestamptz,
      disconnected_at timestamptz,
      profile_name text,
      profile_picture_url text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX channel_instances_company_idx ON channel_instances (company_id, status);
  `.execute(db);
}
