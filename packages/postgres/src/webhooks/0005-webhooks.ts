import { sql, type Kysely } from 'kysely';

/**
 * Tables of the webhooks feature. Forward-only: a released migration is never edited, a new one is added.
 *
 * `webhook_event_queue` holds the outbox events not yet fanned out. A trigger fills it in the
 * transaction that records the event, and the fan-out deletes from it in the transaction that
 * creates the deliveries (`FOR UPDATE SKIP LOCKED`, so several workers share the work). A cursor
 * over `domain_events.seq` would skip events: sequence numbers are taken before commit, so a
 * smaller seq can become visible after a larger one was read.
 *
 * The same trigger sends NOTIFY `carteiro_webhooks` (delivered on commit) so that a listening
 * worker fans out at once instead of waiting for its next poll.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE webhooks (
      id uuid PRIMARY KEY,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      url text NOT NULL,
      events text[] NOT NULL,
      secret text NOT NULL,
      active boolean NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX webhooks_company_idx ON webhooks (company_id, created_at, id);

    CREATE TABLE webhook_deliveries (
      id uuid PRIMARY KEY,
      company_id uuid NOT NULL,
      webhook_id uuid REFERENCES webhooks(id) ON DELETE CASCADE,
      callback_url text,
      event_id uuid NOT NULL,
      event text NOT NULL,
      payload text NOT NULL,
      status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
      attempts integer NOT NULL,
      round_attempts integer NOT NULL,
      next_attempt_at timestamptz,
      locked_until timestamptz,
      last_status_code integer,
      last_error text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      completed_at timestamptz,
      CHECK (webhook_id IS NOT NULL OR callback_url IS NOT NULL)
    );
    CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at, id) WHERE status = 'pending';
    CREATE INDEX webhook_deliveries_log_idx ON webhook_deliveries (webhook_id, created_at DESC, id DESC);

    CREATE TABLE webhook_attempts (
      delivery_id uuid NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
      number integer NOT NULL,
      started_at timestamptz NOT NULL,
      duration_ms integer NOT NULL,
      status_code integer,
      error text,
      result text NOT NULL CHECK (result IN ('succeeded', 'retry', 'failed')),
      PRIMARY KEY (delivery_id, number)
    );

    CREATE TABLE webhook_event_queue (
      seq bigint PRIMARY KEY
    );

    CREATE FUNCTION carteiro_queue_webhook_events() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO webhook_event_queue (seq) SELECT seq FROM inserted;
      PERFORM pg_notify('carteiro_webhooks', 'events');
      RETURN NULL;
    END
    $$;

    CREATE TRIGGER domain_events_webhook_queue
      AFTER INSERT ON domain_events
      REFERENCING NEW TABLE AS inserted
      FOR EACH STATEMENT EXECUTE FUNCTION carteiro_queue_webhook_events();
  `.execute(db);
}
