import { sql, type Kysely } from 'kysely';

/**
 * The simulator outbox's insert (`KyselyChannelSimulatorStore.recordMessage`, one per send or per batch of sends
 * made in one turn of the event loop) as a function: the statements of a PL/pgSQL function are planned once per
 * session and their plan kept, where the same statement sent by the driver (unnamed, for PgBouncer's transaction
 * pooling) is planned on every call, planning being a third of its cost (issue 17). Same statement as before: the
 * first row of a client message id in the batch claims the key, and only a claimed key's row is stored. The columns
 * are those `recordMessage` fills (`seq` and `receipt_pending` take their defaults).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION carteiro_simulator_record(p_rows jsonb) RETURNS SETOF text LANGUAGE plpgsql AS $$
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
        )
        INSERT INTO simulator_messages (id, client_message_id, company_id, setor_id, instance_id, from_number, to_number, to_digits,
                                        kind, text, media_url, media_type, media_filename, template_name, payload, outcome,
                                        error_code, error, provider_failure, sent_at)
        SELECT f.id, f.client_message_id, f.company_id, f.setor_id, f.instance_id, f.from_number, f.to_number, f.to_digits,
               f.kind, f.text, f.media_url, f.media_type, f.media_filename, f.template_name, f.payload, f.outcome,
               f.error_code, f.error, f.provider_failure, f.sent_at
        FROM firsts f WHERE f.client_message_id IN (SELECT c.client_message_id FROM claimed c)
        RETURNING simulator_messages.client_message_id;
    END
    $$;
  `.execute(db);
}
