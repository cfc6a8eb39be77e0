import { sql, type Kysely } from 'kysely';

/**
 * A contact merge moves every row that names the merged contact and then deletes it; none of that may scan a table of
 * every company.
 * - `messages.contact_id` loses its foreign key: a contact's messages are those of its conversations, which go with
 *   the contact (`conversations.contact_id` cascades, and `messages.conversation_id` after it). The key's check on a
 *   delete had no index to use (a scan of every message), and each stored message took a lock on its contact's row.
 * - The clients of opportunities and contracts, whose keys are checked when a contact is deleted, get an index each.
 *   `campaign_messages.contact_id` gets none: each send updates its row twice with a new tuple, and an index there
 *   would cost a write each time for the sake of a rare merge, which reaches those rows through the company's campaigns.
 * Forward-only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE messages DROP CONSTRAINT IF EXISTS messages_contact_id_fkey;
    CREATE INDEX crm_opportunities_client_ref_idx ON crm_opportunities (client_id);
    CREATE INDEX contracts_client_idx ON contracts (client_id);
  `.execute(db);
}
