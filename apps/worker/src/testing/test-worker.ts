import type { Container, ContainerModule } from 'inversify';
import type PgBoss from 'pg-boss';
import { pino } from 'pino';
import { createBoss } from '@carteiro/pgboss';
import { createTestDatabase, type TestDatabase } from '@carteiro/postgres/testing';
import { loadConfig, type Config } from '@carteiro/system';
import { buildWorkerContainer } from '../composition-root.js';
import { runWorker, type RunningWorker } from '../worker.js';

const silentLogger = pino({ level: 'silent' });

export interface TestWorker {
  container: Container;
  database: TestDatabase;
  boss: PgBoss;
  config: Config;
  worker: RunningWorker;
  close(): Promise<void>;
}

/**
 * A running worker on a database: a fresh one of its own, or one shared with a test API
 * (pass `database`). Call `close()` in the test file's afterAll.
 */
export async function createTestWorker(
  options: { env?: Record<string, string>; overrides?: ContainerModule[]; database?: TestDatabase } = {},
): Promise<TestWorker> {
  const ownDatabase = !options.database;
  const database = options.database ?? (await createTestDatabase({ poolSize: 10 }));
  // Simulated receipts only where a test asks for them (SIMULATOR_RECEIPT_DELAY_MS in `env`): other tests see sent messages stay sent.
  const config = loadConfig({ ALLOW_PRIVATE_WEBHOOKS: '1', SIMULATOR_RECEIPT_DELAY_MS: '0', ...options.env });
  const boss = createBoss(database.url, { worker: true });
  boss.on('error', () => undefined);
  await boss.start();
  const container = buildWorkerContainer({ config, db: database.db, boss, logger: silentLogger, overrides: options.overrides });
  const worker = await runWorker(container, boss);
  let closed = false;
  return {
    container,
    database,
    boss,
    config,
    worker,
    async close() {
      if (closed) return;
      closed = true;
      await worker.stop();
      await boss.stop({ graceful: false, wait: true }).catch(() => undefined);
      if (ownDatabase) await database.destroy();
    },
  };
}

/** Polls `probe` until it returns a truthy value or the deadline passes. */
export async function eventually<T>(probe: () => Promise<T>, { timeoutMs = 10_000, intervalMs = 25 } = {}): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
