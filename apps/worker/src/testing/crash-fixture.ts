import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from '@jest/globals';
import type { TestDatabase } from '@carteiro/postgres/testing';
import { createTestWorker, eventually, type TestWorker } from './test-worker.js';

/** A whole worker running in a child process, to be killed mid-work. */
export interface KillableWorker {
  /** SIGKILL, resolved once the process has exited. */
  kill(): Promise<void>;
}

/** What the fixture needs of the API test harness (`createTestApi()` of apps/api/src/testing/test-api.ts). */
interface ApiUnderTest {
  database: TestDatabase;
  close(): Promise<void>;
}

/** What a crash test works with: set up before its tests, everything closed after them. */
export interface CrashFixture<Api extends ApiUnderTest> {
  /** The test API on its fresh database (read it inside tests: it exists once `beforeAll` has run). */
  readonly api: Api;
  /**
   * The whole worker (every job and loop of its composition root, on the simulator) as a child
   * process on the API's database, `env` added to this process's; resolved once it is ready.
   */
  startWorkerProcess(env?: Record<string, string>): Promise<KillableWorker>;
  /** A worker in this process on the API's database (the one that takes over after the kill). */
  successor(options?: Omit<NonNullable<Parameters<typeof createTestWorker>[0]>, 'database'>): Promise<TestWorker>;
}

const here = path.dirname(fileURLToPath(import.meta.url));

async function spawnWorker(databaseUrl: string, env: Record<string, string>): Promise<KillableWorker> {
  const child = spawn(process.execPath, ['--import', path.resolve(here, '../../../../scripts/ts-loader/register.mjs'), 'worker-process.ts'], {
    cwd: path.join(here, '../campaigns/testing'),
    env: { ...process.env, NODE_OPTIONS: '', DATABASE_URL: databaseUrl, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const kill = async () => {
    child.kill('SIGKILL');
    await exited;
  };
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    await eventually(async () => output.includes('ready'), { timeoutMs: 30_000 });
  } catch (error) {
    await kill();
    throw error;
  }
  return { kill };
}

/**
 * The set-up of a test that kills a worker process mid-work: `env` (the short leases the
 * successor's sweep reads) set for the file, the test API `createApi` makes (`createTestApi`),
 * and in `afterAll` every worker process killed, every successor and the API closed, and `env`
 * put back as it was.
 */
export function crashFixture<Api extends ApiUnderTest>(createApi: () => Promise<Api>, env: Record<string, string> = {}): CrashFixture<Api> {
  let api: Api | undefined;
  const children: KillableWorker[] = [];
  const successors: TestWorker[] = [];
  const previous = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));

  beforeAll(async () => {
    Object.assign(process.env, env);
    api = await createApi();
  });
  afterAll(async () => {
    for (const child of children) await child.kill();
    for (const worker of successors) await worker.close();
    await api?.close();
    for (const [name, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  return {
    get api() {
      if (!api) throw new Error('crashFixture: the API exists once beforeAll has run');
      return api;
    },
    async startWorkerProcess(childEnv = {}) {
      const child = await spawnWorker(this.api.database.url, { ...env, ...childEnv });
      children.push(child);
      return child;
    },
    async successor(options = {}) {
      const worker = await createTestWorker({ ...options, database: this.api.database });
      successors.push(worker);
      return worker;
    },
  };
}
