import { sql, type Kysely } from 'kysely';

/**
 * Automatic ticket messages (conversations.md §3): one row per closing message, rating request or
 * rating thanks, written with its job in the transaction that queued it. The row is what makes the
 * worker's send exactly-once: the claim (status, attempt, charge) commits before the channel call,
 * so a retried job knows whether the message may already be out and what to give back.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE ticket_sends (
      id uuid PRIMARY KEY,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      ticket_id uuid NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
      setor_id uuid NOT NULL,
      kind text NOT NULL CHECK (kind IN ('closing_message', 'rating_request', 'csat_thanks')),
      status text NOT NULL CHECK (status IN ('queued', 'sending', 'sent', 'failed', 'skipped')),
      key_mode text NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      claimed_at timestamptz,
      charge jsonb,
      error_code text,
      error text,
      sent_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX ticket_sends_ticket_idx ON ticket_sends (ticket_id, created_at);
    CREATE INDEX ticket_sends_unsettled_idx ON ticket_sends (updated_at) WHERE status IN ('queued', 'sending');
  `.execute(db);
}
