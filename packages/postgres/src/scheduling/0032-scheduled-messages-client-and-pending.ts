import { sql, type Kysely } from 'kysely';

/**
 * Timed sends found by the route-plan audit (apps/api/src/plans) to read every timed send a company ever had:
 * - `POST /v1/scheduled-messages` counts the company's pending sends (its cap) with `status IN ('scheduled',
 *   'sending')`, which `scheduled_messages_company_idx` (company, kind, send_at) can only filter: every send of the
 *   company's history was read on each create. The partial index holds pending sends only, so it stays as small as the
 *   queue and a send that is done leaves it.
 * - The list filtered by client (`GET /v1/scheduled-messages?client_id=`) and a contact merge (which moves the merged
 *   contact's sends) read the company's whole history for one client. `scheduled_messages` is not on the send or
 *   inbound hot path (a timed send writes its row a few times in its life), so one more index is cheap there.
 * Forward-only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE INDEX scheduled_messages_pending_company_idx ON scheduled_messages (company_id, kind) WHERE status IN ('scheduled', 'sending');
    CREATE INDEX scheduled_messages_client_idx ON scheduled_messages (company_id, client_id);
  `.execute(db);
}
