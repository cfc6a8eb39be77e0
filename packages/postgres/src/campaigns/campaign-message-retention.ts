import { sql, type Kysely } from 'kysely';
import type { Database } from '../shared/database.js';

/** Campaigns whose recipients one housekeeping run deletes at most (about 10,000 rows each for the largest). */
export const CAMPAIGN_PURGES_PER_RUN = 5;

/**
 * Deletes the recipients (`campaign_messages`) of campaigns finished (`concluido` or `falha`) before
 * `before`, oldest first, at most `limit` campaigns, each in its own transaction: the campaign row is
 * marked `messages_purged_at` (and locked) first, so a campaign that left its final state meanwhile
 * is skipped. The campaign itself, with its counters, stays. Returns how many recipients were deleted.
 */
export async function purgeMessagesOfFinishedCampaigns(db: Kysely<Database>, before: Date, now: Date, limit = CAMPAIGN_PURGES_PER_RUN): Promise<number> {
  const { rows } = await sql<{ id: string }>`
    SELECT id FROM campaigns
    WHERE status IN ('concluido', 'falha') AND messages_purged_at IS NULL AND finished_at < ${before}
    ORDER BY finished_at LIMIT ${limit}
  `.execute(db);
  let removed = 0;
  for (const { id } of rows) {
    removed += await db.transaction().execute(async (tx) => {
      const marked = await sql`
        UPDATE campaigns SET messages_purged_at = ${now}
        WHERE id = ${id} AND status IN ('concluido', 'falha') AND messages_purged_at IS NULL
      `.execute(tx);
      if (Number(marked.numAffectedRows ?? 0) === 0) return 0;
      const deleted = await sql`DELETE FROM campaign_messages WHERE campaign_id = ${id}`.execute(tx);
      return Number(deleted.numAffectedRows ?? 0);
    });
  }
  return removed;
}
