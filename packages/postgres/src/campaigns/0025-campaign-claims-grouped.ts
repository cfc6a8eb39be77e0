import { sql, type Kysely } from 'kysely';

/**
 * The claims of many lanes in one statement (`KyselyCampaignRepository.claimListed` outside a transaction, grouped
 * by `GroupedCalls`): each message id comes with its lane's setor, owner and clock, and is claimed on the
 * terms of `carteiro_claim_listed` (0021), in the order given. At thousands of numbers a claim per send was the database's most
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
      -- One primary-key statement per message, its plan kept for the session: a plan over all the ids at once is
      -- chosen from the tables' statistics, and while a fresh campaign's rows were not yet analysed PostgreSQL
      -- took the running campaigns (thought to be one) as its driver and filtered every pending message of each
      -- against the whole list (0.5 s a claim at 2,000 numbers). Each step here reads one row by its key.
      FOR i IN 1 .. coalesce(array_length(p_ids, 1), 0) LOOP
        RETURN QUERY
          UPDATE campaign_messages m SET status = 'enviando', claimed_by = p_by[i], claimed_at = p_now[i], updated_at = p_now[i]
          FROM campaigns c
          WHERE m.id = p_ids[i] AND m.setor_id = p_setors[i] AND m.status = 'pendente'
            AND (m.not_before IS NULL OR m.not_before <= p_now[i])
            AND c.id = m.campaign_id AND c.status = 'processando'
          RETURNING m.*;
      END LOOP;
    END
    $$;
  `.execute(db);
}
