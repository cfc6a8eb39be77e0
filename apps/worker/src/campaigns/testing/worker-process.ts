// A whole worker process (every job and loop of the composition root) on the simulator, run as a
// child by the test that kills it:  node --import ../../../../../scripts/ts-loader/register.mjs worker-process.ts
// Env: DATABASE_URL, PACING_SCALE, CAMPAIGN_LANE_LEASE_MS. Prints "ready" once it works.
import 'reflect-metadata';
import { pino } from 'pino';
import { createBoss } from '@carteiro/pgboss';
import { createDb } from '@carteiro/postgres';
import { loadConfig } from '@carteiro/system';
import { buildWorkerContainer } from '../../composition-root.js';
import { runWorker } from '../../worker.js';
import { simulatorOverride } from './simulator-override.js';

const url = process.env.DATABASE_URL!;
const config = loadConfig(process.env);
const db = createDb(url, { poolSize: 8, applicationName: 'carteiro-worker-child' });
const boss = createBoss(url, { worker: true });
boss.on('error', () => undefined);
await boss.start();
const container = buildWorkerContainer({ config, db, boss, logger: pino({ level: 'silent' }), overrides: [simulatorOverride(db)] });
await runWorker(container, boss);
process.stdout.write('ready\n');
