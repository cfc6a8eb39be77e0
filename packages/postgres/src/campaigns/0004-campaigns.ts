import { sql, type Kysely } from 'kysely';

/**
 * Campaigns, their recipients' messages, the per-setor dispatch lanes and Idempotency-Key
 * records. Forward-only: a released migration is never edited, a new one is added.
 *
 * campaign_messages is written in bulk (10,000 rows per campaign with unnest) and claimed with
 * FOR UPDATE SKIP LOCKED through a partial index on pending rows, so the index the dispatch
 * scans stays as small as the work left. Settled counters live on the campaign row and move
 * in the transaction that settles the messages. campaign_messages has no foreign key to
 * campaigns: rows are only written by the engine beside their campaign, and the per-row check
 * cost a third of a 10,000-row insert.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE campaigns (
      id uuid PRIMARY KEY,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      api_key_id uuid,
      mode text NOT NULL CHECK (mode IN ('live', 'test')),
      name text NOT NULL,
      title text,
      description text,
      status text NOT NULL CHECK (status IN ('pendente', 'processando', 'pausado', 'concluido', 'falha')),
      content jsonb NOT NULL,
      anti_ban_level text NOT NULL,
      distribution text NOT NULL,
      distribution_mode text NOT NULL,
      setor_ids uuid[] NOT NULL,
      execution_mode text NOT NULL,
      scheduled_for timestamptz,
      waiting_reason text,
      callback_url text,
      credits_reserved integer NOT NULL DEFAULT 0,
      total integer NOT NULL CHECK (total >= 0),
      enviados integer NOT NULL DEFAULT 0,
      falhas integer NOT NULL DEFAULT 0,
      pulados integer NOT NULL DEFAULT 0,
      error text,
      cancelled_by_user boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      started_at timestamptz,
      finished_at timestamptz,
      CHECK (enviados >= 0 AND falhas >= 0 AND pulados >= 0 AND enviados + falhas + pulados <= total)
    );
    CREATE INDEX campaigns_company_idx ON campaigns (company_id, created_at DESC, id DESC);
    CREATE INDEX campaigns_unfinished_idx ON campaigns (company_id) WHERE status IN ('pendente', 'processando', 'pausado');
    CREATE INDEX campaigns_due_idx ON campaigns (scheduled_for) WHERE status = 'pendente';
    CREATE INDEX campaigns_setores_idx ON campaigns USING gin (setor_ids) WHERE status IN ('pendente', 'processando', 'pausado');

    CREATE TABLE campaign_messages (
      id uuid PRIMARY KEY,
      campaign_id uuid NOT NULL,
      company_id uuid NOT NULL,
      seq integer NOT NULL,
      contact_id uuid,
      phone text NOT NULL,
      name text,
      text text,
      media_url text,
      media_type text,
      variables jsonb,
      status text NOT NULL CHECK (status IN ('pendente', 'enviando', 'enviado', 'falha', 'pulado')),
      assigned_setor_id uuid NOT NULL,
      setor_id uuid NOT NULL,
      actual_setor_id uuid,
      was_reassigned boolean NOT NULL DEFAULT false,
      error text,
      error_code text,
      skip_reason text,
      attempts integer NOT NULL DEFAULT 0,
      manual_retries integer NOT NULL DEFAULT 0,
      auto_retries integer NOT NULL DEFAULT 0,
      not_before timestamptz,
      claimed_by text,
      claimed_at timestamptz,
      provider_message_id text,
      sent_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX campaign_messages_campaign_idx ON campaign_messages (campaign_id, seq);
    CREATE INDEX campaign_messages_pending_idx ON campaign_messages (setor_id, campaign_id, seq) WHERE status = 'pendente';
    CREATE INDEX campaign_messages_in_flight_idx ON campaign_messages (setor_id) WHERE status = 'enviando';

    CREATE TABLE dispatch_lanes (
      setor_id uuid PRIMARY KEY,
      owner text,
      lease_until timestamptz,
      next_send_at timestamptz,
      updated_at timestamptz NOT NULL
    );

    CREATE TABLE idempotency_keys (
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      key text NOT NULL,
      request_hash text NOT NULL,
      state text NOT NULL CHECK (state IN ('in_flight', 'completed')),
      response_status integer,
      response_body jsonb,
      created_at timestamptz NOT NULL,
      locked_until timestamptz NOT NULL,
      PRIMARY KEY (company_id, key)
    );
    CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);
  `.execute(db);
}
