import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Migrator, type Kysely } from 'kysely';
import { createDb, migrateToLatest } from '../db.js';
import { migrationProvider } from '../migrations.js';
import type { Database } from '../shared/database.js';

/** Set by the jest global setup (`test/global-setup.js`). */
export const TEST_ADMIN_URL_ENV = 'CARTEIRO_TEST_ADMIN_URL';
/** One template per run (the global setup names the run), so a changed migration is never stale. */
const TEMPLATE = `carteiro_template_${process.env.CARTEIRO_TEST_RUN ?? 'default'}`;
/** Any constant: serialises template creation across the test workers of a run. */
const TEMPLATE_LOCK = 727_001;

export interface TestDatabase {
  db: Kysely<Database>;
  /** Connection string of this test file's own database. */
  url: string;
  name: string;
  destroy(): Promise<void>;
}

function adminUrl(): string {
  const url = process.env[TEST_ADMIN_URL_ENV] ?? process.env.TEST_DATABASE_URL;
  if (!url) throw new Error(`${TEST_ADMIN_URL_ENV} is unset: run the tests through jest (npm test), whose global setup starts PostgreSQL`);
  return url;
}

export function replaceDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A fresh database for one test file: a copy of a migrated template, so every file starts from
 * an empty, fully migrated schema (pg-boss creates its own schema inside it). The first caller of
 * a run migrates the template; the others wait on an advisory lock.
 */
export async function createTestDatabase(options: { poolSize?: number } = {}): Promise<TestDatabase> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  await withAdmin(async (client) => {
    await client.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    try {
      const ready = await client.query(
        "SELECT 1 FROM pg_database WHERE datname = $1 AND shobj_description(oid, 'pg_database') = 'migrated'",
        [TEMPLATE],
      );
      if (ready.rowCount === 0) {
        await client.query(`DROP DATABASE IF EXISTS ${TEMPLATE} WITH (FORCE)`);
        await client.query(`CREATE DATABASE ${TEMPLATE}`);
        const templateDb = createDb(replaceDatabase(adminUrl(), TEMPLATE), { poolSize: 1 });
        try {
          await migrateToLatest(templateDb);
        } finally {
          await templateDb.destroy();
        }
        await client.query(`COMMENT ON DATABASE ${TEMPLATE} IS 'migrated'`);
      }
      await client.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE}`);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
    }
  });
  return openTestDatabase(name, createDb(replaceDatabase(adminUrl(), name), { poolSize: options.poolSize ?? 5, applicationName: 'carteiro-test' }));
}

function openTestDatabase(name: string, db: Kysely<Database>): TestDatabase {
  return {
    db,
    url: replaceDatabase(adminUrl(), name),
    name,
    async destroy() {
      await db.destroy();
      await withAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/**
 * A database of its own for one upgrade test, migrated only up to the migrations named before
 * `migration` (e.g. `'0026'`): the test stores rows the old way, then runs `migrateToLatest(db)`.
 */
export async function createTestDatabaseBefore(migration: string, options: { poolSize?: number } = {}): Promise<TestDatabase> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  await withAdmin((client) => client.query(`CREATE DATABASE ${name}`));
  const database = openTestDatabase(name, createDb(replaceDatabase(adminUrl(), name), { poolSize: options.poolSize ?? 2 }));
  const before = {
    async getMigrations() {
      const all = await migrationProvider.getMigrations();
      return Object.fromEntries(Object.entries(all).filter(([id]) => id < migration));
    },
  };
  const { error } = await new Migrator({ db: database.db, provider: before }).migrateToLatest();
  if (error) {
    await database.destroy();
    throw error;
  }
  return database;
}
