import { sql, type Kysely } from 'kysely';

/**
 * Billing (business.md §6): lead and assistant credit balances (the messages balance stays
 * `companies.avulso_balance`), the operator's payments (unique external reference per company),
 * low-balance thresholds and the alert state (one row per company, kind and level claimed since the
 * last payment). Also the indexes the summary report reads (reports keep no tables of their own).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE credit_balances (
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('ai_credits', 'lead_credits')),
      balance integer NOT NULL DEFAULT 0 CHECK (balance >= 0),
      PRIMARY KEY (company_id, kind)
    );

    CREATE TABLE payments (
      id uuid PRIMARY KEY,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('messages', 'ai_credits', 'lead_credits')),
      units integer NOT NULL CHECK (units > 0),
      amount_cents bigint NOT NULL CHECK (amount_cents >= 0),
      method text NOT NULL CHECK (method IN ('pix', 'boleto', 'card', 'manual')),
      external_ref text NOT NULL,
      balance_after integer NOT NULL,
      paid_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL,
      UNIQUE (company_id, external_ref)
    );
    CREATE INDEX payments_company_idx ON payments (company_id, created_at DESC, id DESC);

    CREATE TABLE low_balance_thresholds (
      company_id uuid PRIMARY KEY REFERENCES companies(id) ON DELETE CASCADE,
      thresholds jsonb NOT NULL
    );

    CREATE TABLE low_balance_alerts (
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      kind text NOT NULL,
      level text NOT NULL CHECK (level IN ('low', 'exhausted')),
      id uuid NOT NULL,
      PRIMARY KEY (company_id, kind, level)
    );

    CREATE INDEX messages_report_idx ON messages (company_id, created_at) INCLUDE (status, setor_id);
    CREATE INDEX domain_events_report_idx ON domain_events (company_id, event, occurred_at);
  `.execute(db);
}
