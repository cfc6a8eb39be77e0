import type { DomainEvent, EventOutbox } from '@carteiro/core';
import type { Kysely } from 'kysely';
import type { Database } from '../schema/database.js';

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
}
