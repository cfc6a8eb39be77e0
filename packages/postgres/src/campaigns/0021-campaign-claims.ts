import { sql, type Kysely } from 'kysely';

/**
 * The claim a paced lane makes before every send (`KyselyCampaignRepository.claimListed`), as a function: the
 * statements of a PL/pgSQL function are planned once per session and their plan kept, where the same UPDATE sent
 * by the driver (an unnamed statement: PgBouncer's transaction pooling needs them) is planned on every call, and
 * its planning cost five times its execution (0.24 against 0.04 ms). At one claim per send this is the database's
 * most frequent campaign statement (issue 17).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION carteiro_claim_listed(p_setor uuid, p_ids uuid[], p_by text, p_now timestamptz)
    RETURNS SETOF campaign_messages LANGUAGE plpgsql AS $$
    BEGIN
      -- A pause or cancel committed before this statement wins; a row a cancel or a move holds is waited for
      -- and checked again.
      RETURN QUERY
        UPDATE campaign_messages m SET status = 'enviando', claimed_by = p_by, claimed_at = p_now, updated_at = p_now
        FROM campaigns c
        WHERE m.id = ANY(p_ids) AND m.setor_id = p_setor AND m.status = 'pendente'
          AND (m.not_before IS NULL OR m.not_before <= p_now)
          AND c.id = m.campaign_id AND c.status = 'processando'
        RETURNING m.*;
    END
    $$;
  `.execute(db);
}
