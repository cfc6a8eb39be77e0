import { sql, type Kysely } from 'kysely';

/** Companies, keys, setores, teams, counters, the event outbox. Forward-only. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE companies (
      id uuid PRIMARY KEY,
      name text NOT NULL,
      plan_code text NOT NULL,
      modality text NOT NULL CHECK (modality IN ('mensal', 'avulso', 'inativo')),
      expires_at timestamptz,
      avulso_balance integer NOT NULL DEFAULT 0 CHECK (avulso_balance >= 0),
      unlimited boolean NOT NULL DEFAULT false,
      bulk_messaging_enabled boolean NOT NULL DEFAULT true,
      multi_number_enabled boolean NOT NULL DEFAULT true,
      daily_limit integer CHECK (daily_limit >= 0),
      concurrent_campaigns_limit integer CHECK (concurrent_campaigns_limit >= 0),
      company_rpm integer CHECK (company_rpm > 0),
      safe_hours_start integer NOT NULL DEFAULT 8,
      safe_hours_end integer NOT NULL DEFAULT 21,
      timezone text NOT NULL DEFAULT 'America/Sao_Paulo',
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );

    CREATE TABLE api_keys (
      id uuid PRIMARY KEY,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      name text NOT NULL,
      prefix text NOT NULL,
      key_hash text NOT NULL UNIQUE,
      scopes text[] NOT NULL,
      mode text NOT NULL CHECK (mode IN ('live', 'test')),
      rpm integer NOT NULL CHECK (rpm > 0),
      created_at timestamptz NOT NULL,
      revoked_at timestamptz,
      expires_at timestamptz
    );
    CREATE INDEX api_keys_company_idx ON api_keys (company_id, created_at);

    CREATE TABLE setores (
      id uuid PRIMARY KEY,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      nome text NOT NULL,
      channel_type text NOT NULL CHECK (channel_type IN ('qr', 'official')),
      official jsonb,
      warming_daily_limit_override integer CHECK (warming_daily_limit_override >= 0),
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX setores_company_idx ON setores (company_id, created_at);

    CREATE TABLE teams (
      id uuid PRIMARY KEY,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      nome text NOT NULL,
      created_at timestamptz NOT NULL
    );
    CREATE INDEX teams_company_idx ON teams (company_id, created_at);

    CREATE TABLE team_setores (
      team_id uuid NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
      setor_id uuid NOT NULL REFERENCES setores(id) ON DELETE CASCADE,
      position integer NOT NULL,
      PRIMARY KEY (team_id, setor_id)
    );

    CREATE TABLE usage_daily (
      scope text NOT NULL CHECK (scope IN ('company', 'setor')),
      scope_id uuid NOT NULL,
      day date NOT NULL,
      sent integer NOT NULL DEFAULT 0 CHECK (sent >= 0),
      PRIMARY KEY (scope, scope_id, day)
    );

    -- Unlogged: counters of a 60-second window are not worth a WAL write; a crash only resets them.
    CREATE UNLOGGED TABLE rate_limit_counters (
      bucket text NOT NULL,
      window_start timestamptz NOT NULL,
      count integer NOT NULL,
      PRIMARY KEY (bucket, window_start)
    );

    CREATE TABLE domain_events (
      seq bigserial PRIMARY KEY,
      id uuid NOT NULL UNIQUE,
      event text NOT NULL,
      company_id uuid NOT NULL,
      setor_id uuid,
      occurred_at timestamptz NOT NULL,
      data jsonb NOT NULL,
      actor jsonb NOT NULL,
      callback_url text
    );
    CREATE INDEX domain_events_company_idx ON domain_events (company_id, seq);

    CREATE TABLE system_settings (
      key text PRIMARY KEY,
      value text NOT NULL,
      updated_at timestamptz NOT NULL
    );
  `.execute(db);
}
