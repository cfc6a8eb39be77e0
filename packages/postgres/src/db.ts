import { Kysely, Migrator, PostgresDialect } from 'kysely';
import pg from 'pg';
import { migrationProvider } from './migrations.js';
import type { Database } from './shared/database.js';

// bigint (int8) results, such as count(*), arrive as JS numbers: every count here fits easily.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));
// `date` columns stay 'YYYY-MM-DD' strings: they are calendar days, not instants.
pg.types.setTypeParser(pg.types.builtins.DATE, (value: string) => value);

export interface DbOptions {
  /** Connections in this process's pool. */
  poolSize?: number;
  applicationName?: string;
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
  pool.on('connect', (client) => client.on('error', () => undefined));
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
