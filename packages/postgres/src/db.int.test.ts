import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sql } from 'kysely';
import { createDb } from './db.js';
import { createTestDatabase, type TestDatabase } from './testing/index.js';

describe('createDb: connections lost under the pool', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.destroy();
  });

  it('given a transaction whose connection the server terminates between two statements, then only that transaction fails and the pool carries on', async () => {
    const db = createDb(database.url, { poolSize: 2, applicationName: 'carteiro-db-test' });
    try {
      let terminated = false;
      const failed = await db
        .transaction()
        .execute(async (trx) => {
          const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(trx);
          // Checked out and idle in transaction: pg-pool's own error listener is detached now.
          await sql`SELECT pg_terminate_backend(${rows[0]!.pid})`.execute(database.db);
          terminated = true;
          // Wait, with no statement running, until the backend is gone (its FATAL message and the
          // socket's end reach the client meanwhile).
          const deadline = Date.now() + 5_000;
          for (;;) {
            const left = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = ${rows[0]!.pid}`.execute(database.db);
            if (left.rows[0]!.n === 0 || Date.now() > deadline) break;
          }
          await sql`SELECT 1`.execute(trx);
        })
        .then(
          () => false,
          () => true,
        );
      expect({ terminated, failed }).toEqual({ terminated: true, failed: true });
      const { rows } = await sql<{ ok: number }>`SELECT 1 AS ok`.execute(db);
      expect(rows).toEqual([{ ok: 1 }]);
    } finally {
      await db.destroy();
    }
  });
});

describe('createDb: prepared statements', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
    await sql`CREATE TABLE prepared_probe (k int NOT NULL, open boolean NOT NULL, hits int NOT NULL DEFAULT 0)`.execute(database.db);
    await sql`CREATE UNIQUE INDEX prepared_probe_open ON prepared_probe (k) WHERE open`.execute(database.db);
  });
  afterAll(async () => {
    await database?.destroy();
  });

  const preparedOnConnection = (db: ReturnType<typeof createDb>) =>
    sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements WHERE statement LIKE '%prepared_probe%' AND statement NOT LIKE '%pg_prepared_statements%'`.execute(db);

  it('given a parameterised statement run again on one connection, then it is prepared once on that connection and answers each call with its own values', async () => {
    const db = createDb(database.url, { poolSize: 1 });
    try {
      const answers: number[] = [];
      for (let k = 0; k < 8; k += 1) answers.push((await sql<{ k: number }>`SELECT ${k}::int + count(*)::int AS k FROM prepared_probe WHERE k = ${-1}`.execute(db)).rows[0]!.k);
      expect(answers).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      expect((await preparedOnConnection(db)).rows).toHaveLength(1);
    } finally {
      await db.destroy();
    }
  });

  it('given preparedStatements false, then nothing is prepared', async () => {
    const db = createDb(database.url, { poolSize: 1, preparedStatements: false });
    try {
      for (let k = 0; k < 3; k += 1) await sql`SELECT count(*) FROM prepared_probe WHERE k = ${k}`.execute(db);
      expect((await preparedOnConnection(db)).rows).toEqual([]);
    } finally {
      await db.destroy();
    }
  });

  it('given an upsert whose arbiter is a partial index named through a parameter, then it keeps working past the runs after which a generic plan is chosen', async () => {
    const db = createDb(database.url, { poolSize: 1 });
    try {
      for (let run = 0; run < 12; run += 1) {
        await sql`INSERT INTO prepared_probe (k, open) VALUES (1, true) ON CONFLICT (k) WHERE open = ${true} DO UPDATE SET hits = prepared_probe.hits + 1`.execute(db);
      }
      const { rows } = await sql<{ hits: number }>`SELECT hits FROM prepared_probe WHERE k = 1 AND open`.execute(db);
      expect(rows).toEqual([{ hits: 11 }]);
    } finally {
      await db.destroy();
    }
  });

  it('given a prepared SELECT * whose table gains a column (a newer process migrated), then the next call outside a transaction answers with the new column', async () => {
    await sql`CREATE TABLE prepared_grows (k int NOT NULL)`.execute(database.db);
    await sql`INSERT INTO prepared_grows (k) VALUES (1)`.execute(database.db);
    const db = createDb(database.url, { poolSize: 1 });
    try {
      const read = () => sql<Record<string, unknown>>`SELECT * FROM prepared_grows WHERE k = ${1}`.execute(db);
      expect((await read()).rows).toEqual([{ k: 1 }]);
      await sql`ALTER TABLE prepared_grows ADD COLUMN note text NOT NULL DEFAULT 'x'`.execute(database.db);
      expect((await read()).rows).toEqual([{ k: 1, note: 'x' }]);
      expect((await read()).rows).toEqual([{ k: 1, note: 'x' }]);
    } finally {
      await db.destroy();
    }
  });
});
