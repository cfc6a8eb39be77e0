import type { Kysely } from 'kysely';
import { DatabaseSampler } from './database-sampler.js';
import { pgPoolStats, type PgPoolLike, type ProcessMetrics } from './process-metrics.js';

/**
 * Attaches a process's database sources to its metrics: our pool (`app`), pg-boss's pool (`queue`) and
 * the backlog sampler. Idempotent per process (the combined server's API and worker share them).
 */
export function attachDatabaseMetrics(
  metrics: ProcessMetrics,
  sources: { db: Kysely<any>; appPool: PgPoolLike | undefined; boss?: { getDb(): unknown } | undefined; onError?: (error: unknown) => void },
): void {
  metrics.attachPool('app', () => pgPoolStats(sources.appPool));
  metrics.attachPool('queue', () => pgPoolStats((sources.boss?.getDb() as { pool?: PgPoolLike } | undefined)?.pool));
  const onError = (error: unknown) => {
    metrics.sampleFailed();
    sources.onError?.(error);
  };
  metrics.attachSampler(new DatabaseSampler(sources.db, { onError }));
}
