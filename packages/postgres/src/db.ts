import { Kysely, Migrator, PostgresDialect } from 'kysely';
import pg from 'pg';
import { migrationProvider } from './migrations.js';
import type { Database } from './shared/database.js';
import { parseTimestamptz } from './shared/timestamptz.js';

// bigint (int8) results, such as count(*), arrive as JS numbers: every count here fits easily.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));
// `date` columns stay 'YYYY-MM-DD' strings: they are calendar days, not instants.
pg.types.setTypeParser(pg.types.builtins.DATE, (value: string) => value);
// `timestamptz` by arithmetic (shared/timestamptz.ts), pg's own parser for the forms it does not read.
const pgTimestamptz = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ) as (value: string) => Date | number | string | null;
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, (value: string) => parseTimestamptz(value, pgTimestamptz));

export interface DbOptions {
  /** Connections in this process's pool. */
  poolSize?: number;
  applicationName?: string;
  /**
   * Sends parameterised statements as named prepared statements, parsed and planned once per
   * connection (default true). Turn it off behind a pooler that cannot keep them (PgBouncer in
   * transaction mode before 1.21): `DB_PREPARED_STATEMENTS=0`.
   */
  preparedStatements?: boolean;
}

/**
 * The SQL texts this process has named, shared by every pool: a name always means one text, so a
 * connection that prepared it under that name can run it again. Kysely compiles the same text for
 * the same query shape, so the set is small; past the bound, new texts go unnamed (an IN list of
 * every length, say, must not grow the server's memory without end).
 */
const statementNames = new Map<string, string | null>();
const MAX_NAMED_STATEMENTS = 5_000;

function statementName(text: string): string | null {
  const known = statementNames.get(text);
  if (known !== undefined) return known;
  if (statementNames.size >= MAX_NAMED_STATEMENTS) return null;
  // A generic plan cannot infer ON CONFLICT's arbiter index when its predicate holds a parameter
  // (`on conflict (setor_id, contact_id) where status <> $1`): such texts are planned every time
  // (the decision is kept, so the text is looked at once).
  if (/\bon conflict\b/i.test(text)) {
    statementNames.set(text, null);
    return null;
  }
  return rename(text);
}

let renamed = 0;
function rename(text: string): string {
  renamed += 1;
  const name = `k${renamed}`;
  statementNames.set(text, name);
  return name;
}

/** What PostgreSQL answers when a prepared `SELECT *` meets a table whose columns a migration changed. */
function isStalePlan(error: unknown): boolean {
  return error instanceof Error && (error as { code?: string }).code === '0A000' && /cached plan must not change result type/.test(error.message);
}

/**
 * PostgreSQL plans an unnamed statement on every call, and for the short statements of this service
 * planning costs several times the execution. A named statement is parsed once per connection and,
 * after a few runs, keeps a generic plan. Kysely calls `client.query(text, values)`; the call becomes
 * `client.query({ name, text, values })`. Statements without parameters (BEGIN, COMMIT, DDL, several
 * statements in one text) stay as they are.
 *
 * A process still running while a newer one migrates (a rolling deploy) may hold statements whose
 * result type changed: the text then takes a new name, so every connection prepares it afresh, and a
 * statement outside a transaction is run again at once (inside one, the transaction fails once).
 */
function prepareStatementsOf(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown> | undefined;
  let inTransaction = false;
  (client as { query: unknown }).query = (first: unknown, values?: unknown, callback?: unknown) => {
    if (typeof first === 'string' && Array.isArray(values) && callback === undefined) {
      if (values.length === 0) {
        if (/^(begin|start transaction)\b/i.test(first)) inTransaction = true;
        else if (/^(commit|rollback)$/i.test(first)) inTransaction = false;
      } else {
        const name = statementName(first);
        if (name) {
          return query({ name, text: first, values })!.catch((error: unknown) => {
            if (!isStalePlan(error)) throw error;
            if (statementNames.get(first) === name) rename(first);
            if (inTransaction) throw error;
            return query({ name: statementNames.get(first)!, text: first, values });
          });
        }
      }
    }
    return callback === undefined ? (values === undefined ? query(first) : query(first, values)) : query(first, values, callback);
  };
}

const connectionStrings = new WeakMap<object, string>();
const pools = new WeakMap<object, pg.Pool>();

/** The pg pool under a `createDb` instance: its counts (total, idle, waiting) are the pool metrics. */
export function poolOf(db: Kysely<Database>): pg.Pool | undefined {
  return pools.get(db);
}

/**
 * The connection string a `createDb` instance was made with: for processes that need a
 * dedicated connection beside the pool (LISTEN for webhook wake-ups).
 */
export function connectionStringOf(db: Kysely<Database>): string | undefined {
  return connectionStrings.get(db);
}

/** A Kysely instance over a pg pool. */
export function createDb(connectionString: string, options: DbOptions = {}): Kysely<Database> {
  const pool = new pg.Pool({
    connectionString,
    max: options.poolSize ?? 10,
    application_name: options.applicationName ?? 'carteiro',
  });
  // An idle client that loses its server must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  // Nor may a checked-out one (inside a transaction, between two statements): pg-pool listens only
  // to idle clients, and a client's unhandled 'error' (server restart, failover, pg_terminate_backend)
  // would end the process. The statement in flight or the next one fails instead, and the pool
  // discards the broken client when it is released.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
    if (options.preparedStatements ?? true) prepareStatementsOf(client);
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  connectionStrings.set(db, connectionString);
  pools.set(db, pool);
  return db;
}

/** Applies every pending migration. Safe to call from several processes at once (Kysely takes a lock). */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
