import { sql, type Kysely } from 'kysely';
import { defaultPartitionName, partitionNameAt, periodStart, PARTITION_DAYS_AHEAD, timePartitionedTable } from './time-partitions.js';

/** How an existing table becomes range-partitioned by time (migrations 0016). */
export interface PartitionByTime {
  table: string;
  /** The partition key (`timestamptz NOT NULL`); the period comes from `TIME_PARTITIONED_TABLES`. */
  column: string;
  /** The new primary key: the old one plus the partition key, as PostgreSQL requires. */
  primaryKey: readonly string[];
  /** Unique constraints, each including the partition key. */
  uniques?: readonly (readonly string[])[];
  /** Foreign keys of the old table not to carry over (named), e.g. one to another table partitioned meanwhile. */
  dropForeignKeys?: readonly string[];
}

const DAY_MS = 86_400_000;

/**
 * Turns `table` into a table partitioned by time on `column` (the periods of `TIME_PARTITIONED_TABLES`),
 * keeping its rows, columns, defaults, CHECK constraints, sequences, indexes, foreign keys and
 * triggers: the old table is renamed, an empty partitioned twin is created with `LIKE`, partitions
 * are created for every period that has rows and from yesterday to `PARTITION_DAYS_AHEAD` days
 * ahead (plus the default partition), the rows are copied, then the old table's indexes, foreign keys and triggers are
 * created again from their own definitions (so an index another migration added is kept).
 *
 * Runs inside the migration's transaction, holding the table's ACCESS EXCLUSIVE lock until the
 * commit: the copy is the migration's cost (see "Growth" in docs/scaling.md). Used by the 0016
 * migrations only: a released migration's behaviour must not change, so change this by adding
 * another helper.
 */
export async function partitionByTime(db: Kysely<unknown>, spec: PartitionByTime): Promise<void> {
  const { table, column } = spec;
  const old = `${table}_unpartitioned`;
  const id = (name: string) => sql.id(name);

  const indexes = await sql<{ name: string; def: string }>`
    SELECT i.relname AS name, pg_get_indexdef(i.oid) AS def
    FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
    WHERE x.indrelid = ${table}::regclass
      AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conrelid = x.indrelid AND c.conindid = x.indexrelid)
  `.execute(db);
  const keys = await sql<{ name: string; type: string; def: string }>`
    SELECT conname AS name, contype::text AS type, pg_get_constraintdef(oid) AS def FROM pg_constraint
    WHERE conrelid = ${table}::regclass AND contype IN ('p', 'u', 'f')
  `.execute(db);
  const triggers = await sql<{ name: string; def: string }>`
    SELECT tgname AS name, pg_get_triggerdef(oid) AS def FROM pg_trigger WHERE tgrelid = ${table}::regclass AND NOT tgisinternal
  `.execute(db);
  const sequences = await sql<{ seq: string; col: string }>`
    SELECT s.oid::regclass::text AS seq, a.attname AS col
    FROM pg_depend d
    JOIN pg_class s ON s.oid = d.objid AND s.relkind = 'S'
    JOIN pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid
    WHERE d.classid = 'pg_class'::regclass AND d.refobjid = ${table}::regclass AND d.deptype IN ('a', 'i')
  `.execute(db);

  // Free every name the partitioned table will take again; the sequences must outlive the old table.
  for (const s of sequences.rows) await sql`ALTER SEQUENCE ${sql.raw(s.seq)} OWNED BY NONE`.execute(db);
  for (const t of triggers.rows) await sql`DROP TRIGGER ${id(t.name)} ON ${id(table)}`.execute(db);
  for (const i of indexes.rows) await sql`DROP INDEX ${id(i.name)}`.execute(db);
  for (const k of keys.rows.filter((k) => k.type === 'f')) await sql`ALTER TABLE ${id(table)} DROP CONSTRAINT ${id(k.name)}`.execute(db);
  for (const k of keys.rows.filter((k) => k.type !== 'f')) await sql`ALTER TABLE ${id(table)} DROP CONSTRAINT ${id(k.name)}`.execute(db);
  await sql`ALTER TABLE ${id(table)} RENAME TO ${id(old)}`.execute(db);

  await sql`
    CREATE TABLE ${id(table)} (LIKE ${id(old)} INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING GENERATED INCLUDING STORAGE INCLUDING COMMENTS)
    PARTITION BY RANGE (${id(column)})
  `.execute(db);

  const now = new Date((await sql<{ now: Date }>`SELECT now() AS now`.execute(db)).rows[0]!.now);
  const length = timePartitionedTable(table).periodDays * DAY_MS;
  const starts = new Set<number>();
  for (let t = periodStart(table, new Date(now.getTime() - DAY_MS)); t.getTime() <= now.getTime() + PARTITION_DAYS_AHEAD * DAY_MS; t = new Date(t.getTime() + length)) {
    starts.add(t.getTime());
  }
  const withRows = await sql<{ day: Date }>`SELECT DISTINCT date_trunc('day', ${id(column)}, 'UTC') AS day FROM ${id(old)}`.execute(db);
  for (const { day } of withRows.rows) starts.add(periodStart(table, new Date(day)).getTime());
  for (const ms of [...starts].sort((a, b) => a - b)) {
    const from = new Date(ms).toISOString();
    const to = new Date(ms + length).toISOString();
    await sql`CREATE TABLE ${id(partitionNameAt(table, new Date(ms)))} PARTITION OF ${id(table)} FOR VALUES FROM (${sql.lit(from)}) TO (${sql.lit(to)})`.execute(db);
  }
  await sql`CREATE TABLE ${id(defaultPartitionName(table))} PARTITION OF ${id(table)} DEFAULT`.execute(db);

  await sql`INSERT INTO ${id(table)} SELECT * FROM ${id(old)}`.execute(db);

  const columns = (names: readonly string[]) => sql.join(names.map((n) => id(n)));
  await sql`ALTER TABLE ${id(table)} ADD PRIMARY KEY (${columns(spec.primaryKey)})`.execute(db);
  for (const unique of spec.uniques ?? []) await sql`ALTER TABLE ${id(table)} ADD UNIQUE (${columns(unique)})`.execute(db);
  for (const i of indexes.rows) await sql.raw(i.def).execute(db);
  for (const k of keys.rows.filter((k) => k.type === 'f' && !(spec.dropForeignKeys ?? []).includes(k.name))) {
    await sql`ALTER TABLE ${id(table)} ADD CONSTRAINT ${id(k.name)} ${sql.raw(k.def)}`.execute(db);
  }
  for (const t of triggers.rows) await sql.raw(t.def).execute(db);

  await sql`DROP TABLE ${id(old)}`.execute(db);
  for (const s of sequences.rows) await sql`ALTER SEQUENCE ${sql.raw(s.seq)} OWNED BY ${id(table)}.${id(s.col)}`.execute(db);
  await sql`ANALYZE ${id(table)}`.execute(db);
}
