import { sql, type Kysely } from 'kysely';

/**
 * Contacts (unique per company by their ninth-digit-aware match key), affinities, minimal tags,
 * conversations, single-message records and the shared rotation cursors of sender pools.
 * Forward-only: a released migration is never edited, a new one is added.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE contacts (
      id uuid PRIMARY KEY,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      phone text NOT NULL,
      phone_key text NOT NULL,
      name text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      UNIQUE (company_id, phone_key)
    );

    CREATE TABLE contact_affinities (
      contact_id uuid NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
      setor_id uuid NOT NULL REFERENCES setores(id) ON DELETE CASCADE,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      source text NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (contact_id, setor_id)
    );

    CREATE TABLE tags (
      id uuid PRIMARY KEY,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      name text NOT NULL,
      created_at timestamptz NOT NULL,
      UNIQUE (company_id, name)
    );

    CREATE TABLE contact_tags (
      contact_id uuid NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
      tag_id uuid NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (contact_id, tag_id)
    );
    CREATE INDEX contact_tags_tag_idx ON contact_tags (tag_id);

    CREATE TABLE conversations (
      id uuid PRIMARY KEY,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      setor_id uuid NOT NULL REFERENCES setores(id) ON DELETE CASCADE,
      contact_id uuid NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
      last_inbound_at timestamptz,
      last_outbound_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      UNIQUE (setor_id, contact_id)
    );
    CREATE INDEX conversations_contact_idx ON conversations (contact_id);

    CREATE TABLE messages (
      id uuid PRIMARY KEY,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      conversation_id uuid NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
      setor_id uuid NOT NULL REFERENCES setores(id) ON DELETE CASCADE,
      contact_id uuid NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
      phone text NOT NULL,
      sender_number text,
      key_mode text NOT NULL CHECK (key_mode IN ('live', 'test')),
      content jsonb NOT NULL,
      parts jsonb NOT NULL,
      status text NOT NULL CHECK (status IN ('pending', 'sent', 'failed')),
      provider_message_id text,
      error_code text,
      error text,
      reaction text,
      edited_at timestamptz,
      deleted_at timestamptz,
      sent_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX messages_company_idx ON messages (company_id, created_at);
    CREATE INDEX messages_conversation_idx ON messages (conversation_id, created_at);

    CREATE TABLE rotation_cursors (
      key text PRIMARY KEY,
      position bigint NOT NULL,
      updated_at timestamptz NOT NULL
    );
  `.execute(db);
}
