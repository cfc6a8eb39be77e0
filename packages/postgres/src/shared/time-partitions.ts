import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from './database.js';

/**
 * Daily range partitions of the tables that grow with traffic (migrations 0016): each table is
 * partitioned by a timestamp column into `<table>_pYYYYMMDD` partitions holding one UTC day
 * `[day, day + 1)`, plus `<table>_default`, which takes any row whose day has no partition yet,
 * so an insert never fails whatever its time (a worker down for a week, a test's manual clock).
 *
 * Housekeeping creates the partitions of the next days ahead of time (`ensureTimePartitions`) and
 * the retention drops whole partitions (`dropDayPartitionsBefore`) instead of deleting rows; only
 * the default partition, normally empty, is purged row by row.
 */
export interface TimePartitionedTable {
  table: string;
  /** The partition key: a `timestamptz` column. */
  column: string;
}

/** Every time-partitioned table. `webhook_attempts` follows its delivery's day, so both drop together. */
export const TIME_PARTITIONED_TABLES: readonly TimePartitionedTable[] = [
  { table: 'domain_events', column: 'occurred_at' },
  { table: 'webhook_deliveries', column: 'created_at' },
  { table: 'webhook_attempts', column: 'delivery_created_at' },
  { table: 'simulator_messages', column: 'sent_at' },
];

/** How many days of partitions housekeeping keeps ready beyond today. */
export const PARTITION_DAYS_AHEAD = 7;

/**
 * Partition maintenance waits at most this long for its table lock, then gives up until the next
 * housekeeping run: a DDL lock waiting behind a long reader would queue every later query of the table.
 */
const LOCK_TIMEOUT = '2s';

const DAY_MS = 86_400_000;

/** A day partition: its name and bounds (`to` exclusive). */
export interface DayPartition {
  name: string;
  from: Date;
  to: Date;
}

export function utcDay(at: Date): Date {
  return new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);
}

export function dayPartitionName(table: string, day: Date): string {
  return `${table}_p${day.toISOString().slice(0, 10).replaceAll('-', '')}`;
}

export function defaultPartitionName(table: string): string {
  return `${table}_default`;
}

const ident = (name: string) => sql.id(name);

/** PostgreSQL's lock_not_available: the lock timeout ran out. */
const isLockTimeout = (error: unknown) => typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '55P03';

/**
 * Runs `work` in the caller's transaction, or in a new one where a lock timeout answers `busy`:
 * the step is retried by the next housekeeping run instead of failing the run's other steps.
 */
async function unlessBusy<T>(db: Kysely<Database>, work: (tx: Kysely<Database>) => Promise<T>): Promise<T | 'busy'> {
  if (db.isTransaction) return work(db);
  try {
    return await db.transaction().execute(work);
  } catch (error) {
    if (isLockTimeout(error)) return 'busy';
    throw error;
  }
}

/** The day partitions of `table`, oldest first (the default partition is not listed). */
export async function listDayPartitions(db: Kysely<Database>, table: string): Promise<DayPartition[]> {
  const { rows } = await sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = to_regclass(${table})
  `.execute(db);
  const pattern = new RegExp(`^${table}_p(\\d{4})(\\d{2})(\\d{2})$`);
  return rows
    .flatMap(({ name }) => {
      const m = pattern.exec(name);
      if (!m) return [];
      const from = new Date(`${m[1]}-${m[2]}-${m[3]}T00:00:00.000Z`);
      return [{ name, from, to: new Date(from.getTime() + DAY_MS) }];
    })
    .sort((a, b) => a.from.getTime() - b.from.getTime());
}

/**
 * Creates the missing day partitions of `[from, to]`. Rows the default partition took for such a
 * day (nobody created it in time) move into the new partition in the same transaction.
 * Returns how many partitions were created.
 */
export async function ensureDayPartitions(db: Kysely<Database>, spec: TimePartitionedTable, from: Date, to: Date): Promise<number> {
  const existing = new Set((await listDayPartitions(db, spec.table)).map((p) => p.name));
  let created = 0;
  for (let day = utcDay(from); day.getTime() <= to.getTime(); day = new Date(day.getTime() + DAY_MS)) {
    if (existing.has(dayPartitionName(spec.table, day))) continue;
    const result = await createDayPartition(db, spec, day);
    if (result === 'busy') break;
    if (result) created += 1;
  }
  return created;
}

async function createDayPartition(db: Kysely<Database>, spec: TimePartitionedTable, day: Date): Promise<boolean | 'busy'> {
  const name = dayPartitionName(spec.table, day);
  const fromIso = day.toISOString();
  const toIso = new Date(day.getTime() + DAY_MS).toISOString();
  const table = ident(spec.table);
  const partition = ident(name);
  const fallback = ident(defaultPartitionName(spec.table));
  const column = ident(spec.column);
  return unlessBusy(db, async (tx) => {
    await sql`SELECT set_config('lock_timeout', ${LOCK_TIMEOUT}, true)`.execute(tx);
    // The parent first, as every insert locks it before the partition it routes to: no lock-order inversion.
    await sql`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`.execute(tx);
    const exists = await sql<{ one: number }>`SELECT 1 AS one FROM pg_class WHERE relname = ${name} AND relkind IN ('r', 'p')`.execute(tx);
    if (exists.rows.length > 0) return false;
    const strays = await sql<{ one: number }>`
      SELECT 1 AS one FROM ${fallback} WHERE ${column} >= ${fromIso}::timestamptz AND ${column} < ${toIso}::timestamptz LIMIT 1
    `.execute(tx);
    if (strays.rows.length === 0) {
      await sql`CREATE TABLE ${partition} PARTITION OF ${table} FOR VALUES FROM (${sql.lit(fromIso)}) TO (${sql.lit(toIso)})`.execute(tx);
      return true;
    }
    // The default partition holds rows of this day: move them into a new table, then attach it.
    await sql`CREATE TABLE ${partition} (LIKE ${table} INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING GENERATED INCLUDING STORAGE)`.execute(tx);
    await sql`
      WITH moved AS (
        DELETE FROM ${fallback} WHERE ${column} >= ${fromIso}::timestamptz AND ${column} < ${toIso}::timestamptz RETURNING *
      )
      INSERT INTO ${partition} SELECT * FROM moved
    `.execute(tx);
    await sql`ALTER TABLE ${table} ATTACH PARTITION ${partition} FOR VALUES FROM (${sql.lit(fromIso)}) TO (${sql.lit(toIso)})`.execute(tx);
    return true;
  });
}

/**
 * Creates, for every time-partitioned table, the partitions from yesterday to `PARTITION_DAYS_AHEAD`
 * days after `now` (a housekeeping step). Returns how many were created.
 */
export async function ensureTimePartitions(db: Kysely<Database>, now: Date, daysAhead = PARTITION_DAYS_AHEAD): Promise<number> {
  let created = 0;
  for (const spec of TIME_PARTITIONED_TABLES) {
    created += await ensureDayPartitions(db, spec, new Date(now.getTime() - DAY_MS), new Date(now.getTime() + daysAhead * DAY_MS));
  }
  return created;
}

export interface DropOptions {
  /**
   * A query answering at least one row when the partition must be kept for now (pending work in
   * it). It runs after the tables are locked, so nothing can change between the check and the drop.
   * Partitions are dropped oldest first and the first one kept stops the run.
   */
  keepIf?: (partition: DayPartition) => RawBuilder<unknown>;
  /** Tables partitioned with the same days whose partition of the same day goes too (a delivery's attempts). */
  siblings?: readonly string[];
}

/**
 * Drops the day partitions of `table` that end at or before `before` (so every row in them is
 * older), each in its own short transaction. Returns the number of rows they held (the planner's
 * estimate, `pg_class.reltuples`: counting them would read the whole partition).
 */
export async function dropDayPartitionsBefore(db: Kysely<Database>, table: string, before: Date, options: DropOptions = {}): Promise<number> {
  const due = (await listDayPartitions(db, table)).filter((p) => p.to.getTime() <= before.getTime());
  let rows = 0;
  for (const partition of due) {
    const dropped = await unlessBusy(db, async (tx) => {
      await sql`SELECT set_config('lock_timeout', ${LOCK_TIMEOUT}, true)`.execute(tx);
      for (const parent of [table, ...(options.siblings ?? [])]) await sql`LOCK TABLE ${ident(parent)} IN ACCESS EXCLUSIVE MODE`.execute(tx);
      if (options.keepIf && (await options.keepIf(partition).execute(tx)).rows.length > 0) return null;
      const names = [partition.name, ...(options.siblings ?? []).map((s) => dayPartitionName(s, partition.from))];
      const estimate = await sql<{ n: number }>`
        SELECT coalesce(sum(greatest(reltuples, 0)), 0)::bigint AS n FROM pg_class WHERE relname = ${partition.name}
      `.execute(tx);
      for (const name of names) await sql`DROP TABLE IF EXISTS ${ident(name)}`.execute(tx);
      return Number(estimate.rows[0]?.n ?? 0);
    });
    if (dropped === null || dropped === 'busy') break;
    rows += dropped;
  }
  return rows;
}
