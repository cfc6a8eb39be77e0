import { sql, type Kysely } from 'kysely';

/**
 * Retention of campaign recipients (see "Growth" in docs/scaling.md). `campaign_messages` is not
 * partitioned: every read names one campaign (`campaign_messages_campaign_idx`) and the dispatch
 * reads partial indexes that hold only pending and in-flight rows, so a read costs what its own
 * campaign holds however large the table grows. What grows is disk, vacuum and backups: when the
 * operator sets `CAMPAIGN_MESSAGE_RETENTION_DAYS`, housekeeping deletes the recipients of campaigns
 * finished longer ago, a few campaigns per run through that index, and marks the campaign
 * (`messages_purged_at`; its counters stay). The partial index lists only the finished campaigns
 * not purged yet, so finding the next ones costs nothing however many campaigns were purged.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE campaigns ADD COLUMN messages_purged_at timestamptz;
    CREATE INDEX campaigns_retention_idx ON campaigns (finished_at) WHERE status IN ('concluido', 'falha') AND messages_purged_at IS NULL;
  `.execute(db);
}
