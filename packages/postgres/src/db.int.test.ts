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
