import { afterAll } from '@jest/globals';
import { describeContactRepositoriesContract } from '@carteiro/core/testing';
import { Kysely, PostgresDialect } from 'kysely';
import { poolOf } from '../db.js';
import type { Database } from '../shared/database.js';
import { KyselyUnitOfWork, kyselyRepositories } from '../kysely-unit-of-work.js';
import { createTestDatabase, type TestDatabase } from '../testing/test-database.js';

let database: TestDatabase | undefined;
afterAll(async () => database?.destroy());
let sent = 0;

describeContactRepositoriesContract(
  'kysely',
  async () => {
    database ??= await createTestDatabase();
    // The same pool, counted: the bulk case bounds the statements of one ensure of 10,000 phones.
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: poolOf(database.db)! }), log: () => void (sent += 1) });
    return { uow: new KyselyUnitOfWork(db), repos: kyselyRepositories(db) };
  },
  // One statement for 10,000 phones, where a per-row implementation sends 10,000 (a time budget flaked on a busy machine).
  { bulk: { size: 10_000, statements: () => sent, maxStatements: 2 } },
);
