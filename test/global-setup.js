// Plain ESM (jest loads global setup outside its module system): the embedded server is started by
// packages/postgres/src/embedded.ts, loaded through the repository's TypeScript module hooks, so
// tests and `npm start` share one start-up (as root: the postgres user, binaries it can reach).
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * One PostgreSQL server per test run: embedded, unless TEST_DATABASE_URL names one. Test files
 * copy a migrated template database from it (packages/postgres/src/testing/test-database.ts).
 */
export default async function globalSetup() {
  process.env.CARTEIRO_TEST_RUN = randomBytes(4).toString('hex');
  if (process.env.TEST_DATABASE_URL) {
    process.env.CARTEIRO_TEST_ADMIN_URL = process.env.TEST_DATABASE_URL;
    return;
  }
  await import('../scripts/ts-loader/register.mjs');
  const { startEmbeddedPostgres, EmbeddedPostgresError } = await import('../packages/postgres/src/embedded.ts');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'carteiro-test-'));
  try {
    // In the run's process group: a Ctrl-C on the run stops it too.
    const server = await startEmbeddedPostgres({ dataDir: dir, ephemeral: true, maxConnections: 500, ownProcessGroup: false });
    globalThis.__carteiroPg = { server, dir };
    process.env.CARTEIRO_TEST_ADMIN_URL = server.adminUrl;
  } catch (error) {
    if (!(error instanceof EmbeddedPostgresError)) throw error;
    // One sentence with the fix, not a stack trace.
    const clear = new Error(`The tests' embedded PostgreSQL did not start. ${error.message.replace('set DATABASE_URL', 'set TEST_DATABASE_URL')}`);
    clear.stack = clear.message;
    throw clear;
  }
}
