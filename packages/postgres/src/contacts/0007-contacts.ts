import { sql, type Kysely } from 'kysely';

/**
 * Contacts grow email, custom fields and the assistant switch; tags grow description and colour
 * and become unique ignoring case; tag rules, custom-field definitions and import jobs (with their
 * rows stored per batch) are new. `q` searches names through a trigram index, the start of emails
 * and the end of the phone's digits through btree indexes. Forward-only: a released migration is never edited, a new one is added.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE EXTENSION IF NOT EXISTS pg_trgm;

    ALTER TABLE contacts
      ADD COLUMN email text,
      ADD COLUMN custom_fields jsonb NOT NULL DEFAULT '{}'::jsonb,
      ADD COLUMN ia_ativa boolean NOT NULL DEFAULT true,
      ADD COLUMN ia_paused_until timestamptz;
    CREATE INDEX contacts_company_created_idx ON contacts (company_id, created_at DESC, id DESC);
    CREATE INDEX contacts_company_updated_idx ON contacts (company_id, updated_at);
    CREATE INDEX contacts_name_trgm_idx ON contacts USING gin (lower(name) gin_trgm_ops);
    -- Emails match from their start (what people type): a btree prefix scan, where a trigram index reads the
    -- posting lists of the domain's trigrams, shared by most of the company's contacts.
    CREATE INDEX contacts_email_prefix_idx ON contacts (company_id, lower(email) text_pattern_ops);
    -- Digits in q match the end of the number (last digits, the national number, the whole number in either
    -- ninth-digit form): reversed digits (E.164 without its +) make that a prefix, which a btree answers at once.
    CREATE INDEX contacts_digits_suffix_idx ON contacts (company_id, reverse(ltrim(phone, '+')) text_pattern_ops);
    CREATE INDEX contacts_key_digits_suffix_idx ON contacts (company_id, reverse(ltrim(phone_key, '+')) text_pattern_ops);

    ALTER TABLE tags
      ADD COLUMN description text,
      ADD COLUMN color text,
      ADD COLUMN updated_at timestamptz;
    UPDATE tags SET updated_at = created_at;
    ALTER TABLE tags ALTER COLUMN updated_at SET NOT NULL;
    CREATE UNIQUE INDEX tags_company_lower_name_idx ON tags (company_id, lower(name));

    CREATE TABLE tag_rules (
      id uuid PRIMARY KEY,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      tag_id uuid NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
      match_type text NOT NULL CHECK (match_type IN ('contains', 'starts_with', 'equals', 'regex')),
      match_value text NOT NULL,
      case_sensitive boolean NOT NULL,
      scope text NOT NULL CHECK (scope IN ('contact', 'conversation')),
      setor_ids uuid[] NOT NULL,
      enabled boolean NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX tag_rules_company_idx ON tag_rules (company_id, created_at);
    CREATE INDEX tag_rules_tag_idx ON tag_rules (tag_id);

    CREATE TABLE contact_field_definitions (
      id uuid PRIMARY KEY,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      key text NOT NULL,
      label text NOT NULL,
      type text NOT NULL,
      options jsonb NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      UNIQUE (company_id, key)
    );

    CREATE TABLE contact_imports (
      id uuid PRIMARY KEY,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      status text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed')),
      mode text NOT NULL CHECK (mode IN ('fill', 'overwrite', 'create_only')),
      total integer NOT NULL,
      processed integer NOT NULL,
      created integer NOT NULL,
      updated integer NOT NULL,
      skipped integer NOT NULL,
      failed integer NOT NULL,
      errors jsonb NOT NULL,
      batches integer NOT NULL,
      next_batch integer NOT NULL,
      error jsonb,
      lease_until timestamptz,
      stalled_claims integer NOT NULL,
      started_at timestamptz,
      finished_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX contact_imports_active_idx ON contact_imports (company_id) WHERE status IN ('queued', 'running');

    CREATE TABLE contact_import_batches (
      import_id uuid NOT NULL REFERENCES contact_imports(id) ON DELETE CASCADE,
      batch integer NOT NULL,
      rows jsonb NOT NULL,
      PRIMARY KEY (import_id, batch)
    );
  `.execute(db);
}
