import { sql, type Kysely } from 'kysely';

/**
 * Tickets (conversations.md §1): one attendance of a contact on a setor, at most one active (not
 * closed) per setor and contact by a partial unique index, numbered per company through
 * `ticket_counters`; their tags and links; and the columns that let inbound messages, notes and
 * activities live in `messages` beside sent ones. Forward-only: never edited once released.
 *
 * Beyond the shared design: `messages.ticket_id` is indexed for the timeline only where set, and
 * `tickets_contact_idx` serves `findReopenable` and the contact's recent tickets.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE ticket_counters (
      company_id uuid PRIMARY KEY REFERENCES companies(id) ON DELETE CASCADE,
      last_number bigint NOT NULL
    );

    CREATE TABLE tickets (
      id uuid PRIMARY KEY,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      number bigint NOT NULL,
      status text NOT NULL,
      priority text,
      priority_rank smallint NOT NULL,
      setor_id uuid NOT NULL REFERENCES setores(id) ON DELETE CASCADE,
      contact_id uuid NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
      conversation_id uuid NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
      agent_id uuid,
      team_id uuid,
      snoozed_until timestamptz,
      waiting_since timestamptz,
      last_message jsonb,
      last_activity_at timestamptz NOT NULL,
      source text NOT NULL,
      first_response_at timestamptz,
      closed_at timestamptz,
      close_reason text,
      rating_status text NOT NULL,
      rating_requested_at timestamptz,
      rating_score smallint,
      rating_comment text,
      rated_at timestamptz,
      rating_source text,
      rated_agent_id uuid,
      rated_team_id uuid,
      handoff_summary text,
      handoff_at timestamptz,
      version integer NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE UNIQUE INDEX tickets_one_active_idx ON tickets (setor_id, contact_id) WHERE status <> 'closed';
    CREATE UNIQUE INDEX tickets_number_idx ON tickets (company_id, number);
    CREATE INDEX tickets_activity_idx ON tickets (company_id, last_activity_at DESC, id DESC);
    CREATE INDEX tickets_updated_idx ON tickets (company_id, updated_at, id);
    CREATE INDEX tickets_queue_idx ON tickets (company_id, priority_rank, waiting_since, id) WHERE status = 'open' AND agent_id IS NULL;
    CREATE INDEX tickets_snoozed_idx ON tickets (snoozed_until) WHERE status = 'snoozed' AND snoozed_until IS NOT NULL;
    CREATE INDEX tickets_contact_idx ON tickets (contact_id, setor_id, closed_at DESC);
    CREATE INDEX tickets_agent_open_idx ON tickets (agent_id) WHERE status <> 'closed';

    CREATE TABLE ticket_tags (
      ticket_id uuid NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
      tag_id uuid NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
      company_id uuid NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (ticket_id, tag_id)
    );
    CREATE INDEX ticket_tags_tag_idx ON ticket_tags (tag_id);

    CREATE TABLE ticket_links (
      ticket_id uuid NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
      type text NOT NULL,
      target_id uuid NOT NULL,
      company_id uuid NOT NULL,
      linked_at timestamptz NOT NULL,
      PRIMARY KEY (ticket_id, type, target_id)
    );

    -- Inbound messages, notes and activities live in messages beside sent ones.
    ALTER TABLE messages
      ADD COLUMN ticket_id uuid REFERENCES tickets(id) ON DELETE SET NULL,
      ADD COLUMN direction text NOT NULL DEFAULT 'outbound',
      ADD COLUMN type text NOT NULL DEFAULT 'message',
      ADD COLUMN author jsonb,
      ADD COLUMN activity jsonb,
      ADD COLUMN delivered_at timestamptz,
      ADD COLUMN read_at timestamptz;
    CREATE UNIQUE INDEX messages_inbound_provider_idx ON messages (setor_id, provider_message_id)
      WHERE direction = 'inbound' AND provider_message_id IS NOT NULL;
    CREATE INDEX messages_ticket_timeline_idx ON messages (ticket_id, created_at, id) WHERE ticket_id IS NOT NULL;
    CREATE INDEX messages_conversation_timeline_idx ON messages (conversation_id, created_at, id);
  `.execute(db);
}
