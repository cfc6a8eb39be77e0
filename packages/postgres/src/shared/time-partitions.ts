import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from './database.js';

/**
 * Range partitions by time of the tables that grow with traffic (migrations 0016): each table is
 * partitioned on a timestamp column into `<table>_pYYYYMMDD` partitions of one period (a UTC week
 * from Monday, or a UTC day; the name is the period's first day), plus `<table>_default`, which
 * takes any row whose period has no partition yet, so an insert never fails whatever its time (a
 * worker down for a week, a test's manual clock).
 *
 * Housekeeping creates the partitions of the coming week ahead of time (`ensureTimePartitions`) and
 * the retention drops whole partitions (`dropPartitionsBefore`) instead of deleting rows; only the
 * default partition, normally empty, is purged row by row.
 *
 * Weeks for the 30-day tables: a query that cannot prune (a delivery by id, a company's latest
 * simulated messages) plans every partition, and planning grows with their number (about 40 daily
 * partitions cost a few milliseconds per query; 7 weekly ones a fraction). Days for the simulator's
 * 7-day outbox, whose retention would otherwise double.
 */
export interface TimePartitionedTable {
  table: string;
  /** The partition key: a `timestamptz` column. */
  column: string;
  /** Length of a partition: 7 (a week from Monday, UTC) or 1 (a UTC day). */
  periodDays: 1 | 7;
}

/** Every time-partitioned table. `webhook_attempts` follows its delivery's period, so both drop together. */
export const TIME_PARTITIONED_TABLES: readonly TimePartitionedTable[] = [
  { table: 'domain_events', column: 'occurred_at', periodDays: 7 },
  { table: 'webhook_deliveries', column: 'created_at', periodDays: 7 },
  { table: 'webhook_attempts', column: 'delivery_created_at', periodDays: 7 },
  { table: 'simulator_messages', column: 'sent_at', periodDays: 1 },
];

/** How far beyond now housekeeping keeps partitions ready. */
export const PARTITION_DAYS_AHEAD = 7;

/**
 * Partition maintenance waits at most this long for its table lock, then gives up until the next
 * housekeeping run: a DDL lock waiting behind a long reader would queue every later query of the table.
 */
const LOCK_TIMEOUT = '2s';

const DAY_MS = 86_400_000;
/** 1970-01-01 was a Thursday: weeks start 4 days later, on Monday 1970-01-05. */
const WEEK_OFFSET_MS = 4 * DAY_MS;

/** A partition: its name and bounds (`to` exclusive). */
export interface TimePartition {
  name: string;
  from: Date;
  to: Date;
}

export function timePartitionedTable(table: string): TimePartitionedTable {
  const spec = TIME_PARTITIONED_TABLES.find((t) => t.table === table);
  if (!spec) throw new Error(`${table} is not a time-partitioned table`);
  return spec;
}

/** The first instant of the period of `table` that holds `at`. */
export function periodStart(table: string, at: Date): Date {
  const length = timePartitionedTable(table).periodDays * DAY_MS;
  const offset = length === DAY_MS ? 0 : WEEK_OFFSET_MS;
  return new Date(Math.floor((at.getTime() - offset) / length) * length + offset);
}

/** The name of the partition of `table` that holds `at`. */
export function partitionNameAt(table: string, at: Date): string {
  return `${table}_p${periodStart(table, at).toISOString().slice(0, 10).replaceAll('-', '')}`;
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

/** The partitions of `table`, oldest first (the default partition is not listed). */
export async function listPartitions(db: Kysely<Database>, table: string): Promise<TimePartition[]> {
  const length = timePartitionedTable(table).periodDays * DAY_MS;
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
      return [{ name, from, to: new Date(from.getTime() + length) }];
    })
    .sort((a, b) => a.from.getTime() - b.from.getTime());
}

/**
 * Creates the missing partitions of the periods that `[from, to]` touches. Rows the default
 * partition took for such a period (nobody created it in time) move into the new partition in the
 * same transaction. Returns how many partitions were created.
 */
export async function ensurePartitions(db: Kysely<Database>, spec: TimePartitionedTable, from: Date, to: Date): Promise<number> {
  const existing = new Set((await listPartitions(db, spec.table)).map((p) => p.name));
  const length = spec.periodDays * DAY_MS;
  let created = 0;
  for (let start = periodStart(spec.table, from); start.getTime() <= to.getTime(); start = new Date(start.getTime() + length)) {
    if (existing.has(partitionNameAt(spec.table, start))) continue;
    const result = await createPartition(db, spec, start);
    if (result === 'busy') break;
    if (result) created += 1;
  }
  return created;
}

async function createPartition(db: Kysely<Database>, spec: TimePartitionedTable, start: Date): Promise<boolean | 'busy'> {
  const name = partitionNameAt(spec.table, start);
  const fromIso = start.toISOString();
  const toIso = new Date(start.getTime() + spec.periodDays * DAY_MS).toISOString();
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
    // The default partition holds rows of this period: move them into a new table, then attach it.
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
 * Creates, for every time-partitioned table, the partitions from yesterday's period to the one
 * `daysAhead` days after `now` (a housekeeping step, every minute: usually a catalogue read).
 * Returns how many were created.
 */
export async function ensureTimePartitions(db: Kysely<Database>, now: Date, daysAhead = PARTITION_DAYS_AHEAD): Promise<number> {
  let created = 0;
  for (const spec of TIME_PARTITIONED_TABLES) {
    created += await ensurePartitions(db, spec, new Date(now.getTime() - DAY_MS), new Date(now.getTime() + daysAhead * DAY_MS));
  }
  return created;
}

export interface DropOptions {
  /**
   * A query answering at least one row when the partition must be kept for now (pending work in
   * it). It runs after the tables are locked, so nothing can change between the check and the drop.
   * Partitions are dropped oldest first and the first one kept stops the run.
   */
  keepIf?: (partition: TimePartition) => RawBuilder<unknown>;
  /** Tables partitioned with the same periods whose partition of the same period goes too (a delivery's attempts). */
  siblings?: readonly string[];
}

/**
 * Drops the partitions of `table` that end at or before `before` (so every row in them is older),
 * each in its own short transaction. Returns the number of rows they held (the planner's estimate,
 * `pg_class.reltuples`: counting them would read the whole partition).
 */
export async function dropPartitionsBefore(db: Kysely<Database>, table: string, before: Date, options: DropOptions = {}): Promise<number> {
  const due = (await listPartitions(db, table)).filter((p) => p.to.getTime() <= before.getTime());
  let rows = 0;
  for (const partition of due) {
    const dropped = await unlessBusy(db, async (tx) => {
      await sql`SELECT set_config('lock_timeout', ${LOCK_TIMEOUT}, true)`.execute(tx);
      for (const parent of [table, ...(options.siblings ?? [])]) await sql`LOCK TABLE ${ident(parent)} IN ACCESS EXCLUSIVE MODE`.execute(tx);
      if (options.keepIf && (await options.keepIf(partition).execute(tx)).rows.length > 0) return null;
      const names = [partition.name, ...(options.siblings ?? []).map((s) => partitionNameAt(s, partition.from))];
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
