import { sql, type Kysely } from 'kysely';

/** One pg-boss queue's waiting jobs. */
export interface QueueSample {
  name: string;
  ready: number;
  deferred: number;
  oldestReadySeconds: number;
}

/** The backlogs read from the database at one instant. */
export interface DatabaseSample {
  queues: QueueSample[];
  webhooks: { due: number; scheduled: number; oldestDueSeconds: number } | null;
  outboxBacklog: number | null;
}

/**
 * Reads queue depths and webhook backlogs at scrape time, at most once per `maxAgeMs` per process
 * (concurrent scrapes share one read). Each query reads a partial index only (pg-boss's `job_i5` on
 * jobs not yet active, our `webhook_deliveries` index on pending deliveries, the small fan-out queue),
 * so a scrape costs three index scans whatever the size of the history. Nothing here runs per send.
 * A failed read leaves the gauges empty until the next scrape instead of failing the scrape.
 */
export class DatabaseSampler {
  private last: { at: number; value: Promise<DatabaseSample | null> } | null = null;

  constructor(
    private readonly db: Kysely<any>,
    private readonly options: { maxAgeMs?: number; bossSchema?: string; onError?: (error: unknown) => void } = {},
  ) {}

  sample(): Promise<DatabaseSample | null> {
    const now = Date.now();
    if (this.last && now - this.last.at < (this.options.maxAgeMs ?? 5_000)) return this.last.value;
    const value = this.read().catch((error: unknown) => {
      this.options.onError?.(error);
      return null;
    });
    this.last = { at: now, value };
    return value;
  }

  private async read(): Promise<DatabaseSample> {
    const schema = sql.id(this.options.bossSchema ?? 'pgboss');
    const [names, counts] = await Promise.all([
      sql<{ name: string }>`SELECT name FROM ${schema}.queue`.execute(this.db),
      // state < 'active' is pg-boss's own predicate for waiting jobs (created, retry): its partial index job_i5.
      sql<{ name: string; ready: number; deferred: number; oldest: number | null }>`
        SELECT name,
               count(*) FILTER (WHERE start_after <= now())::int AS ready,
               count(*) FILTER (WHERE start_after > now())::int AS deferred,
               extract(epoch FROM now() - min(start_after) FILTER (WHERE start_after <= now()))::float8 AS oldest
        FROM ${schema}.job WHERE state < 'active' GROUP BY name`.execute(this.db),
    ]);
    const byName = new Map(counts.rows.map((r) => [r.name, r]));
    const queues = names.rows
      .map(({ name }) => {
        const r = byName.get(name);
        return { name, ready: r?.ready ?? 0, deferred: r?.deferred ?? 0, oldestReadySeconds: Math.max(0, r?.oldest ?? 0) };
      })
      .sort((a, b) => a.name.localeCompare(b.name));
    const webhooks = await sql<{ due: number; scheduled: number; oldest: number | null }>`
      SELECT count(*) FILTER (WHERE next_attempt_at <= now())::int AS due,
             count(*) FILTER (WHERE next_attempt_at > now())::int AS scheduled,
             extract(epoch FROM now() - min(next_attempt_at) FILTER (WHERE next_attempt_at <= now()))::float8 AS oldest
      FROM webhook_deliveries WHERE status = 'pending'`
      .execute(this.db)
      .then((r) => r.rows[0] ?? null, () => null);
    const outbox = await sql<{ n: number }>`SELECT count(*)::int AS n FROM webhook_event_queue`
      .execute(this.db)
      .then((r) => r.rows[0]?.n ?? 0, () => null);
    return {
      queues,
      webhooks: webhooks ? { due: webhooks.due, scheduled: webhooks.scheduled, oldestDueSeconds: Math.max(0, webhooks.oldest ?? 0) } : null,
      outboxBacklog: outbox,
    };
  }
}
