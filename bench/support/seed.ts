// Bulk seeding by SQL for the benchmarks that need large tables: a table's secondary indexes are dropped
// before the load and rebuilt from their own definitions afterwards (one index build is much faster than
// millions of incremental inserts), then the table is vacuumed and analysed so that autovacuum of the
// fresh rows does not run during the measurements.
import { sql, type Kysely } from 'kysely';
import type { Database } from '@carteiro/postgres';

/**
 * Runs `load` with the secondary indexes of `table` dropped (all but its primary key and the names in
 * `keep`: e.g. a unique index the load relies on), rebuilds them, then `VACUUM (ANALYZE)` the table.
 */
export async function loadWithIndexesRebuilt(db: Kysely<Database>, table: string, keep: readonly string[], load: () => Promise<void>): Promise<void> {
  const secondary = await sql<{ indexname: string; indexdef: string }>`
    SELECT i.indexname, i.indexdef FROM pg_indexes i
    WHERE i.schemaname = current_schema() AND i.tablename = ${table}
      AND i.indexname <> ALL(${[...keep]}::text[])
      AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname AND c.contype IN ('p', 'u'))`.execute(db);
  for (const index of secondary.rows) await sql.raw(`DROP INDEX ${index.indexname}`).execute(db);
  await load();
  await db.connection().execute(async (conn) => {
    await sql`SET maintenance_work_mem = '256MB'`.execute(conn);
    for (const index of secondary.rows) await sql.raw(index.indexdef).execute(conn);
  });
  await sql.raw(`VACUUM (ANALYZE) ${table}`).execute(db);
}

/** Runs `insert(from, to)` over `[0, total)` in slices of `batch` (inclusive bounds), so no statement grows too large. */
export async function inBatches(total: number, batch: number, insert: (from: number, to: number) => Promise<unknown>): Promise<void> {
  for (let from = 0; from < total; from += batch) await insert(from, Math.min(total, from + batch) - 1);
}
