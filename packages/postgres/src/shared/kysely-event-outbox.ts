import type { DomainEvent, EventOutbox } from '@carteiro/core';
import { sql, type Kysely } from 'kysely';
import type { Database } from './database.js';

/** Writes events into `domain_events` in the caller's transaction. */
export class KyselyEventOutbox implements EventOutbox {
  constructor(private readonly db: Kysely<Database>) {}

  async record(events: readonly DomainEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.db
      .insertInto('domain_events')
      .values(
        events.map((e) => ({
          id: e.id,
          event: e.event,
          company_id: e.companyId,
          setor_id: e.setorId,
          occurred_at: e.occurredAt,
          data: JSON.stringify(e.data),
          actor: JSON.stringify(e.actor),
          callback_url: e.callbackUrl ?? null,
        })),
      )
      .execute();
  }

  async purgeBefore(before: Date): Promise<number> {
    // Events still waiting for the webhook fan-out (a worker down for long) are kept.
    const result = await this.db
      .deleteFrom('domain_events')
      .where('occurred_at', '<', before)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('webhook_event_queue as q').select(sql`1`.as('one')).whereRef('q.seq', '=', 'domain_events.seq'))))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
