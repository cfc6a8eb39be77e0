import { sql, type Kysely } from 'kysely';

/**
 * Channel sessions of setores, their health and its history, the official 24-hour conversation
 * windows, and the simulator's shared state (outbox, ended sessions). Forward-only: a released
 * migration is never edited, a new one is added.
 */
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

    CREATE TABLE channel_health (
      instance_id uuid PRIMARY KEY REFERENCES channel_instances(id) ON DELETE CASCADE,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      setor_id uuid NOT NULL,
      state text NOT NULL CHECK (state IN ('healthy', 'degraded', 'down', 'unknown')),
      connected boolean NOT NULL,
      responding boolean NOT NULL,
      last_checked_at timestamptz NOT NULL,
      last_ok_at timestamptz,
      consecutive_failures integer NOT NULL CHECK (consecutive_failures >= 0),
      error text
    );
    CREATE INDEX channel_health_company_idx ON channel_health (company_id);

    CREATE TABLE channel_health_history (
      id bigserial PRIMARY KEY,
      instance_id uuid NOT NULL REFERENCES channel_instances(id) ON DELETE CASCADE,
      company_id uuid NOT NULL,
      setor_id uuid NOT NULL,
      checked_at timestamptz NOT NULL,
      state text NOT NULL,
      connected boolean NOT NULL,
      responding boolean NOT NULL,
      error text
    );
    CREATE INDEX channel_health_history_company_idx ON channel_health_history (company_id, checked_at);
    CREATE INDEX channel_health_history_checked_idx ON channel_health_history (checked_at);

    -- One row per box and contact (phone key without the Brazilian ninth digit): the last inbound message.
    CREATE TABLE conversation_windows (
      setor_id uuid NOT NULL REFERENCES setores(id) ON DELETE CASCADE,
      phone_key text NOT NULL,
      last_inbound_at timestamptz NOT NULL,
      PRIMARY KEY (setor_id, phone_key)
    );

    CREATE TABLE simulator_messages (
      seq bigserial PRIMARY KEY,
      id uuid NOT NULL UNIQUE,
      client_message_id text NOT NULL UNIQUE,
      company_id uuid NOT NULL,
      setor_id uuid NOT NULL,
      instance_id uuid NOT NULL,
      from_number text,
      to_number text NOT NULL,
      to_digits text NOT NULL,
      kind text NOT NULL,
      text text,
      media_url text,
      media_type text,
      media_filename text,
      template_name text,
      payload jsonb NOT NULL,
      outcome text NOT NULL CHECK (outcome IN ('sent', 'failed')),
      error_code text,
      error text,
      provider_failure boolean NOT NULL DEFAULT false,
      sent_at timestamptz NOT NULL
    );
    CREATE INDEX simulator_messages_sent_idx ON simulator_messages (sent_at DESC, seq DESC);
    CREATE INDEX simulator_messages_setor_idx ON simulator_messages (setor_id, sent_at DESC);
    CREATE INDEX simulator_messages_company_idx ON simulator_messages (company_id, sent_at DESC);
    CREATE INDEX simulator_messages_to_idx ON simulator_messages (to_digits, sent_at DESC);

    -- The latest end (ban or logout) of each simulated session.
    CREATE TABLE simulator_session_ends (
      instance_id uuid PRIMARY KEY,
      ended_at timestamptz NOT NULL,
      reason text NOT NULL CHECK (reason IN ('banned', 'logged_out'))
    );
  `.execute(db);
}
