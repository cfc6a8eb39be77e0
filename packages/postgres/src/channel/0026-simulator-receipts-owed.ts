import { sql, type Kysely } from 'kysely';

/**
 * The simulator's owed delivery receipts move out of the outbox into a narrow table of their own (issue 17).
 *
 * Until now a flag on the outbox row (`receipt_pending`, 0017) said a receipt was owed, found through a partial
 * index on it. Settling a receipt updated that flag, and a column in an index's predicate rules out a HOT update:
 * every settled receipt wrote a new version of the wide outbox row and an entry in each of its six indexes. At 2,000
 * sends a second that was about a fifth of the database's time per send. Now the outbox insert also writes one
 * narrow row here (in the same statement, so a stored send is owed its receipt exactly when it exists), and settling
 * a receipt deletes it. The outbox row is never updated again.
 *
 * Receipts owed before the upgrade are copied over; the flag and its index are dropped. A worker of the previous
 * release still running during a rolling deploy fails its receipt sweep (logged, retried) until it is replaced.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE simulator_receipts_owed (
      sent_at timestamptz NOT NULL,
      id uuid NOT NULL,
      setor_id uuid NOT NULL,
      PRIMARY KEY (sent_at, id)
    );
    INSERT INTO simulator_receipts_owed (sent_at, id, setor_id)
      SELECT sent_at, id, setor_id FROM simulator_messages WHERE receipt_pending AND outcome = 'sent' AND NOT (payload ? 'operation');
    DROP INDEX simulator_messages_receipt_idx;
    ALTER TABLE simulator_messages DROP COLUMN receipt_pending;

    CREATE OR REPLACE FUNCTION carteiro_simulator_record(p_rows jsonb) RETURNS SETOF text LANGUAGE plpgsql AS $$
    BEGIN
      RETURN QUERY
        WITH input AS (
          SELECT r.*, o.n FROM jsonb_array_elements(p_rows) WITH ORDINALITY AS o(j, n),
            LATERAL jsonb_populate_record(NULL::simulator_messages, o.j) AS r
        ), firsts AS (
          SELECT DISTINCT ON (i.client_message_id) * FROM input i ORDER BY i.client_message_id, i.n
        ), claimed AS (
          INSERT INTO simulator_message_keys (client_message_id, sent_at)
          SELECT f.client_message_id, f.sent_at FROM firsts f
          ON CONFLICT DO NOTHING
          RETURNING simulator_message_keys.client_message_id
        ), stored AS (
          INSERT INTO simulator_messages (id, client_message_id, company_id, setor_id, instance_id, from_number, to_number, to_digits,
                                          kind, text, media_url, media_type, media_filename, template_name, payload, outcome,
                                          error_code, error, provider_failure, sent_at)
          SELECT f.id, f.client_message_id, f.company_id, f.setor_id, f.instance_id, f.from_number, f.to_number, f.to_digits,
                 f.kind, f.text, f.media_url, f.media_type, f.media_filename, f.template_name, f.payload, f.outcome,
                 f.error_code, f.error, f.provider_failure, f.sent_at
          FROM firsts f WHERE f.client_message_id IN (SELECT c.client_message_id FROM claimed c)
          RETURNING simulator_messages.client_message_id, simulator_messages.id, simulator_messages.setor_id,
                    simulator_messages.sent_at, simulator_messages.outcome = 'sent' AND NOT (simulator_messages.payload ? 'operation') AS owed
        ), owed AS (
          INSERT INTO simulator_receipts_owed (sent_at, id, setor_id)
          SELECT s.sent_at, s.id, s.setor_id FROM stored s WHERE s.owed
        )
        SELECT s.client_message_id FROM stored s;
    END
    $$;
  `.execute(db);
}
