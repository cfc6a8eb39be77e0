import { sql, type Kysely } from 'kysely';

/**
 * The claims of many lanes in one statement (`KyselyCampaignRepository.claimListed` outside a transaction, grouped
 * by `GroupedStatements`): each message id comes with its lane's setor, owner and clock, and is claimed on the
 * terms of `carteiro_claim_listed` (0021). At thousands of numbers a claim per send was the database's most
 * frequent statement, and each one a socket write and a backend wake-up (issue 17).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION carteiro_claim_grouped(p_ids uuid[], p_setors uuid[], p_by text[], p_now timestamptz[])
    RETURNS SETOF campaign_messages LANGUAGE plpgsql AS $$
    BEGIN
      -- A row another transaction holds (a campaign's contacts being linked, a cancel, a move) must not stall the
      -- claims of every lane in the group: after a short wait the statement gives up (55P03) and the caller claims
      -- each lane's messages on its own (0021), where only the lane that names the row waits for it.
      PERFORM set_config('lock_timeout', '50ms', true);
      -- Planned at every call (EXECUTE), with the table's size as it is then: a plan kept from a session's first
      -- calls, made while a fresh campaign's rows were not yet analysed, scanned the whole table for each claim.
      RETURN QUERY EXECUTE $q$
        UPDATE campaign_messages m SET status = 'enviando', claimed_by = r.by, claimed_at = r.at, updated_at = r.at
        FROM unnest($1, $2, $3, $4) AS r(id, setor, by, at), campaigns c
        WHERE m.id = ANY($1) AND m.id = r.id AND m.setor_id = r.setor AND m.status = 'pendente'
          AND (m.not_before IS NULL OR m.not_before <= r.at)
          AND c.id = m.campaign_id AND c.status = 'processando'
        RETURNING m.*
      $q$ USING p_ids, p_setors, p_by, p_now;
    END
    $$;
  `.execute(db);
}
