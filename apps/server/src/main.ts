import type { Server } from 'node:http';
import type PgBoss from 'pg-boss';
import { AdminService, Clock, IdGenerator, ManageAgents, ManageQuickReplies, ManageTeams, UnitOfWork } from '@carteiro/core';
import { buildApiContainer, createApp } from '@carteiro/api';
import { SIMULATOR_REF_PREFIX, simulatedPhoneNumber } from '@carteiro/channels';
import { createBoss, ensureDeclaredQueues } from '@carteiro/pgboss';
import { EmbeddedPostgresError, type ServiceUnitOfWork } from '@carteiro/postgres';
import { loadConfig } from '@carteiro/system';
import { buildWorkerContainer, runWorker, type RunningWorker } from '@carteiro/worker';
import { ProcessMetrics, startMetricsServer, type MetricsServer } from '@carteiro/metrics';
import { openDatabase, type OpenDatabase } from './database.js';
import { resolveAdminToken, seedDemo, type FirstStartSecrets } from './first-start.js';
import { createLogger } from './logger.js';

function banner(url: string, secrets: FirstStartSecrets): string {
  const lines = [`Carteiro is listening on ${url}  (console: ${url}/console, docs: ${url}/docs, health: ${url}/healthz)`];
  if (secrets.adminToken || secrets.demo) {
    lines.push('', 'First start: save these now, they are not shown again.');
    if (secrets.adminToken) lines.push(`  export ADMIN_TOKEN=${secrets.adminToken}`);
    if (secrets.demo) {
      lines.push(`  export API_KEY=${secrets.demo.apiKey}      # ak_test_: every scope, simulated sends, no credits`);
      lines.push(`  export SETOR_ID=${secrets.demo.setorId}      # the demo box, its simulated number already connected`);
      lines.push(`  export COMPANY_ID=${secrets.demo.companyId}`);
      if (secrets.demo.agentId) lines.push(`  export AGENT_ID=${secrets.demo.agentId}      # an available agent of the auto-assign team "Atendimento"`);
      if (secrets.demo.quickReplyId) lines.push(`  export QUICK_REPLY_ID=${secrets.demo.quickReplyId}`);
    }
    lines.push(`  export BASE_URL=${url}`);
  }
  return lines.join('\n');
}

type Stoppable = {
  server: Server | null;
  metricsServer: MetricsServer | null;
  worker: RunningWorker | null;
  boss: PgBoss | null;
  database: OpenDatabase | null;
};

/** `npm start`: the API and/or the worker (ROLE), on the embedded PostgreSQL unless DATABASE_URL is set. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const withApi = config.role !== 'worker';
  const withWorker = config.role !== 'api';
  const running: Stoppable = { server: null, metricsServer: null, worker: null, boss: null, database: null };
  // One registry per process: with ROLE=all the API's /metrics shows the worker's series too.
  const metrics = new ProcessMetrics();

  // Signals are ours from the first moment: a Ctrl-C during start-up waits for the step under way,
  // then stops what has started (the embedded PostgreSQL is in its own process group, so the
  // terminal's SIGINT reaches only this process and the database stops last, after the drain).
  let startup: Promise<void> = Promise.resolve();
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      logger.flush();
      running.database?.embedded?.kill();
      process.exit(1);
    }, 25_000);
    timer.unref();
    await startup.catch(() => undefined);
    try {
      if (running.server) {
        const s = running.server;
        await new Promise<void>((resolve) => {
          // A keep-alive socket busy at the close goes idle later and would hold the close open while its client
          // keeps sending on it: idle sockets are closed until the last one is gone.
          const idle = setInterval(() => s.closeIdleConnections(), 50);
          s.close(() => {
            clearInterval(idle);
            resolve();
          });
          s.closeIdleConnections();
        });
      }
      await running.worker?.stop();
      await running.metricsServer?.close();
      await running.boss?.stop({ graceful: true, wait: true, timeout: 10_000 });
      await running.database?.close();
    } catch (err) {
      logger.error({ err }, 'error during shutdown');
    }
    logger.flush();
    process.exit(0);
  };
  // Libraries may have installed exit handlers that exit at once (async-exit-hook exits with 143/130):
  // they would cut the drain short, leaving claimed campaign messages claimed until their lease ran out.
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => void shutdown(signal));
  }

  startup = (async () => {
    const database = await openDatabase(config, { poolSize: config.dbPoolSize, applicationName: `carteiro-${config.role}`, preparedStatements: config.dbPreparedStatements });
    running.database = database;
    if (database.embedded) {
      const { port, clusterDir, placement } = database.embedded;
      logger.info({ port, dataDir: clusterDir }, placement ? `embedded PostgreSQL started. ${placement}` : 'embedded PostgreSQL started');
    }
    if (stopping) return;
    const admin = await resolveAdminToken(database.db, config.adminToken, database.embedded !== null);

    const boss = createBoss(database.url, { worker: withWorker });
    // One short line (the logger's `err` serializer): the driver's errors carry their whole client.
    boss.on('error', (err) => logger.error({ err }, 'queue error'));
    running.boss = boss;
    await boss.start();
    if (stopping) return;

    const secrets: FirstStartSecrets = { adminToken: admin.generated, demo: null };

    if (withApi) {
      const container = buildApiContainer({
        config,
        db: database.db,
        boss,
        logger,
        adminTokenHash: admin.hash,
        metrics,
        readiness: async () => {
          await database.db.selectNoFrom((eb) => eb.val(1).as('ok')).execute();
          return true;
        },
      });
      await ensureDeclaredQueues(boss, container);
      if (database.embedded) {
        secrets.demo = await seedDemo(database.db, container.get(AdminService), async (companyId, setorId) => {
          const clock = container.get<Clock>(Clock);
          const ids = container.get<IdGenerator>(IdGenerator);
          const now = clock.now();
          const id = ids.newId();
          // A session the simulator considers scanned: the demo number is connected from the start.
          await container.get<ServiceUnitOfWork>(UnitOfWork).transaction(async (tx) => {
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
        }, { agents: container.get(ManageAgents), teams: container.get(ManageTeams), quickReplies: container.get(ManageQuickReplies) });
      }
      if (stopping) return;
      const app = createApp(container);
      const server = await new Promise<Server>((resolve, reject) => {
        const s = app.listen(config.port, config.host, () => resolve(s));
        s.on('error', reject);
      });
      running.server = server;
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : config.port;
      process.stdout.write(`${banner(`http://${config.host}:${port}`, secrets)}\n`);
    }

    if (withWorker && !stopping) {
      const container = buildWorkerContainer({ config, db: database.db, boss, logger, metrics });
      running.worker = await runWorker(container, boss);
      logger.info('worker started');
    }

    // A process without the API (ROLE=worker) is scraped here; any role may ask for a separate listener.
    if (config.metricsPort !== undefined && !stopping) {
      running.metricsServer = await startMetricsServer({ host: config.host, port: config.metricsPort, registry: metrics.registry, token: config.metricsToken });
      logger.info({ port: running.metricsServer.port }, 'metrics listening');
    }
  })();

  try {
    await startup;
  } catch (err) {
    // A failed start stops what it had started (the embedded PostgreSQL above all) before reporting.
    stopping = true;
    await running.boss?.stop({ graceful: false, wait: true, timeout: 5_000 }).catch(() => undefined);
    await running.database?.close().catch(() => undefined);
    throw err;
  }
}

main().catch((err: unknown) => {
  // A cause the operator can fix is one sentence; anything else keeps its stack for a bug report.
  const text = err instanceof EmbeddedPostgresError ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err);
  process.stderr.write(`Carteiro failed to start: ${text}\n`);
  process.exit(1);
});
