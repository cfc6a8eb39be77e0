import { sql, type Kysely } from 'kysely';

/**
 * Contracts for signature (business.md §4): templates, contracts (signers, document identity and
 * delivery kept as JSON beside the row: they are read and written whole with it), and the log of
 * provider webhook events already handled (deduplication). Never PDF bytes, signing URLs or provider
 * tokens beyond the envelope and signer refs needed to cancel and match. Forward-only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE contract_templates (
      id uuid PRIMARY KEY,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      name text NOT NULL,
      description text,
      body text NOT NULL,
      variables jsonb NOT NULL,
      active boolean NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX contract_templates_company_idx ON contract_templates (company_id, name);

    CREATE TABLE contracts (
      id uuid PRIMARY KEY,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      title text NOT NULL,
      status text NOT NULL CHECK (status IN ('draft', 'sending', 'sent', 'signed', 'refused', 'expired', 'cancelled')),
      value_cents bigint,
      client_id uuid NOT NULL REFERENCES contacts(id),
      -- Checked by the use case (404); opportunities are only ever soft-deleted.
      opportunity_id uuid,
      template_id uuid REFERENCES contract_templates(id),
      variables jsonb NOT NULL,
      content text NOT NULL,
      signers jsonb NOT NULL,
      expires_in_days integer NOT NULL,
      sent_at timestamptz,
      expires_at timestamptz,
      signed_at timestamptz,
      refused_at timestamptz,
      cancelled_at timestamptz,
      sending_since timestamptz,
      document jsonb,
      delivery jsonb,
      provider text,
      provider_ref text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX contracts_company_idx ON contracts (company_id, created_at DESC, id DESC);
    CREATE INDEX contracts_sent_idx ON contracts (company_id, sent_at) WHERE sent_at IS NOT NULL;
    CREATE UNIQUE INDEX contracts_envelope_idx ON contracts (provider, provider_ref) WHERE provider_ref IS NOT NULL;
    CREATE INDEX contracts_sending_idx ON contracts (sending_since) WHERE status = 'sending';
    CREATE INDEX contracts_awaiting_idx ON contracts (updated_at, id) WHERE status = 'sent';

    CREATE TABLE signing_events (
      provider text NOT NULL,
      event_id text NOT NULL,
      received_at timestamptz NOT NULL,
      PRIMARY KEY (provider, event_id)
    );
  `.execute(db);
}
