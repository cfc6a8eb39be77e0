import type { DomainEvent, EventOutbox } from '@carteiro/core';
import { sql, type Kysely } from 'kysely';
import type { Database } from './database.js';
import { defaultPartitionName, dropPartitionsBefore } from './time-partitions.js';

/** The `domain_events` row of an event (without its `seq`). */
export function domainEventRow(e: DomainEvent) {
  return {
    id: e.id,
    event: e.event,
    company_id: e.companyId,
    setor_id: e.setorId,
    occurred_at: e.occurredAt,
    data: JSON.stringify(e.data),
    actor: JSON.stringify(e.actor),
    callback_url: e.callbackUrl ?? null,
  };
}

/** Writes events into `domain_events` in the caller's transaction. */
export class KyselyEventOutbox implements EventOutbox {
  constructor(private readonly db: Kysely<Database>) {}

  async record(events: readonly DomainEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.db.insertInto('domain_events').values(events.map(domainEventRow)).execute();
  }

  /**
   * Drops the weekly partitions that end before `before` (a week is kept while the webhook fan-out has
   * not taken all of its events: a worker down for long), then deletes the old rows the default
   * partition took (weeks that had no partition yet).
   */
  async purgeBefore(before: Date): Promise<number> {
    const dropped = await dropPartitionsBefore(this.db, 'domain_events', before, {
      keepIf: (partition) => sql`SELECT 1 FROM webhook_event_queue WHERE occurred_at < ${partition.to} LIMIT 1`,
    });
    const result = await sql`
      DELETE FROM ${sql.id(defaultPartitionName('domain_events'))} e
      WHERE e.occurred_at < ${before} AND NOT EXISTS (SELECT 1 FROM webhook_event_queue q WHERE q.seq = e.seq)
    `.execute(this.db);
    return dropped + Number(result.numAffectedRows ?? 0);
  }
}
