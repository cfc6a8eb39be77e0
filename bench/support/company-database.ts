// The database of a benchmark that calls the core in process: its own migrated database and one
// company inserted directly (no HTTP, no tenant keys), with the clock, ids and repositories it needs.
import { createCompany, type Company } from '@carteiro/core';
import { createDb, kyselyRepositories, migrateToLatest, type Database } from '@carteiro/postgres';
import { SystemClock, UuidGenerator } from '@carteiro/system';
import type { Kysely } from 'kysely';
import { startBenchDatabase } from './tenant.js';

/** What a benchmark works with; `close()` in its `finally`. */
export interface CompanyDatabase {
  db: Kysely<Database>;
  clock: SystemClock;
  ids: UuidGenerator;
  repos: ReturnType<typeof kyselyRepositories>;
  company: Company;
  close(): Promise<void>;
}

/**
 * One embedded PostgreSQL (or BENCH_DATABASE_URL) with a database of its own named after the
 * benchmark, as every benchmark, migrated, and the company `settings` describe inserted in it.
 */
export async function startCompanyDatabase(name: string, settings: Parameters<typeof createCompany>[2]): Promise<CompanyDatabase> {
  const database = await startBenchDatabase(name);
  const db = createDb(database.url, { poolSize: 8, applicationName: `carteiro-bench-${name}` });
  const close = async () => {
    await db.destroy();
    await database.stop();
  };
  try {
    await migrateToLatest(db);
    const clock = new SystemClock();
    const ids = new UuidGenerator();
    const repos = kyselyRepositories(db);
    const company = createCompany(ids.newId(), clock.now(), settings);
    await repos.companies.insert(company);
    return { db, clock, ids, repos, company, close };
  } catch (error) {
    await close();
    throw error;
  }
}
