// Real server processes for the process-level tests (scale-out, chaos, database cuts, shutdown):
// `apps/server/src/main.ts` run from the TypeScript sources through the module hooks the worker
// crash test already uses (scripts/ts-loader/register.mjs), so no build is needed
// and a test never runs stale compiled code.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from '@jest/globals';
import { createTestDatabase, type TestDatabase } from '@carteiro/postgres/testing';
import type { Role } from '@carteiro/system';
import { eventually } from '../../../worker/src/testing/test-worker.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../../..');
const REGISTER_TS = path.join(root, 'scripts/ts-loader/register.mjs');
const MAIN_TS = path.join(root, 'apps/server/src/main.ts');

/** Bearer token of the admin API of every process these helpers start. */
export const PROCESS_ADMIN_TOKEN = 'process-test-admin-token-0123456789';

/** How a child ended. */
export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** One running `main.ts` process. */
export interface ServerProcess {
  role: Role;
  pid: number;
  /** Base URL of its API (`ROLE=api|all`), else null. */
  url: string | null;
  /** Resolves when the process has exited. */
  exited: Promise<ProcessExit>;
  /** Null while it runs. */
  exit: ProcessExit | null;
  /** Everything it wrote (stdout and stderr, the last 200 kB), for failure messages. */
  output(): string;
  kill(signal: NodeJS.Signals): void;
  /**
   * Signals its whole process group, as a terminal's Ctrl-C does (`process.kill(-pid)`): only for
   * a process started with `detached: true`, which leads its own group (else the group is jest's).
   */
  killGroup(signal: NodeJS.Signals): void;
}

/** How `start`/`launch` run a process. */
export interface StartOptions {
  /** How long `start` waits for it to work; default 45 s. */
  readyTimeoutMs?: number;
  /** Its own process group (and session), as a shell in a terminal starts a command. */
  detached?: boolean;
}

/** Whether the process `pid` is alive. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The PID of the embedded PostgreSQL running on `dataDir` (its postmaster.pid), or null. */
export async function embeddedPostgresPid(dataDir: string): Promise<number | null> {
  const content = await readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').catch(() => null);
  const pid = Number(content?.split('\n')[0]);
  return pid > 0 && isAlive(pid) ? pid : null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The processes of one test file on one database. `start` spawns `main.ts` with a ROLE and waits
 * until it works (API: `/healthz` answers 200; worker: its "worker started" log line); `stopAll`
 * (call it in afterAll, it runs even when a test failed) SIGKILLs every child still alive, by pid.
 */
export class ServerFleet {
  private readonly children = new Set<ServerProcess>();

  /**
   * `databaseUrl`: every process on that database. `dataDir` instead: on the embedded PostgreSQL of
   * that DATA_DIR (one process at a time; `stopAll` also stops a server a killed process left).
   */
  constructor(private readonly base: { databaseUrl?: string; dataDir?: string; env?: Record<string, string> }) {}

  async start(role: Role, env: Record<string, string> = {}, options: StartOptions = {}): Promise<ServerProcess> {
    const proc = await this.launch(role, env, options);
    const output = () => proc.output();
    try {
      await eventually(
        async () => {
          if (proc.exit) throw new Error(`${role} process exited during start-up (${JSON.stringify(proc.exit)}):\n${output().slice(-4_000)}`);
          const apiUp = proc.url === null || (await fetch(`${proc.url}/healthz`).then((r) => r.ok, () => false));
          const workerUp = role === 'api' || output().includes('worker started');
          return apiUp && workerUp;
        },
        { timeoutMs: options.readyTimeoutMs ?? 45_000, intervalMs: 50 },
      );
    } catch (error) {
      throw new Error(`${role} process did not start: ${(error as Error).message}\n${output().slice(-4_000)}`);
    }
    return proc;
  }

  /** Spawns `main.ts` without waiting for it to work (a start meant to fail, say). */
  async launch(role: Role, env: Record<string, string> = {}, { detached = false }: StartOptions = {}): Promise<ServerProcess> {
    const port = role === 'worker' ? 0 : await freePort();
    const database: Record<string, string> = this.base.databaseUrl ? { DATABASE_URL: this.base.databaseUrl } : { DATA_DIR: this.base.dataDir! };
    const inherited = { ...process.env };
    if (!this.base.databaseUrl) delete inherited.DATABASE_URL;
    const child: ChildProcess = spawn(process.execPath, ['--import', REGISTER_TS, MAIN_TS], {
      cwd: root,
      detached,
      env: {
        ...inherited,
        // Jest's --experimental-vm-modules is not for the child.
        NODE_OPTIONS: '',
        ROLE: role,
        ...database,
        ADMIN_TOKEN: PROCESS_ADMIN_TOKEN,
        HOST: '127.0.0.1',
        PORT: String(port),
        PACING_SCALE: '0',
        SIMULATOR_SCAN_DELAY_MS: '20',
        CAMPAIGN_LANE_LEASE_MS: '1500',
        DB_POOL_SIZE: '8',
        LOG_LEVEL: 'info',
        ...this.base.env,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let requested = false;
    const append = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.length > 400_000) output = output.slice(-200_000);
    };
    child.stdout!.on('data', append);
    child.stderr!.on('data', append);
    const proc: ServerProcess = {
      role,
      pid: child.pid!,
      url: role === 'worker' ? null : `http://127.0.0.1:${port}`,
      exit: null,
      exited: new Promise<ProcessExit>((resolve) =>
        child.on('exit', (code, signal) => {
          proc.exit = { code, signal };
          // A process that ended on its own (a crash) shows why in the test output.
          if (!requested) process.stderr.write(`[${role} ${proc.pid}] exited ${JSON.stringify(proc.exit)}:\n${output.slice(-6_000)}\n`);
          this.children.delete(proc);
          resolve(proc.exit);
        }),
      ),
      output: () => output,
      kill: (signal) => {
        requested = true;
        if (proc.exit === null) process.kill(proc.pid, signal);
      },
      killGroup: (signal) => {
        if (!detached) throw new Error('killGroup: the process was not started detached; its group is the test runner\'s');
        requested = true;
        if (proc.exit === null) process.kill(-proc.pid, signal);
      },
    };
    this.children.add(proc);
    return proc;
  }

  /** SIGKILLs a process and waits until it is gone. */
  async kill(proc: ServerProcess): Promise<ProcessExit> {
    proc.kill('SIGKILL');
    return proc.exited;
  }

  /**
   * SIGKILLs every child still alive and waits for them; on an embedded database, then stops the
   * PostgreSQL server a killed process left running (it leads its own process group).
   */
  async stopAll(): Promise<void> {
    const alive = [...this.children];
    for (const proc of alive) {
      try {
        proc.kill('SIGKILL');
      } catch {
        // already gone
      }
    }
    await Promise.all(alive.map((p) => p.exited));
    if (!this.base.dataDir) return;
    const pid = await embeddedPostgresPid(this.base.dataDir);
    if (pid === null) return;
    process.kill(pid, 'SIGINT');
    await eventually(async () => !isAlive(pid), { timeoutMs: 30_000, intervalMs: 50 });
  }

  get alive(): ServerProcess[] {
    return [...this.children];
  }
}

/** What a fleet test works with: read its fields inside tests (they exist once `beforeAll` has run). */
export interface FleetFixture {
  readonly database: TestDatabase;
  readonly fleet: ServerFleet;
}

/**
 * A fresh test database and a fleet of server processes on it (`env` added to each process's), made in a beforeAll that
 * then runs `started` (the processes the file starts up front; `timeoutMs` covers both), and stopped and dropped in
 * afterAll (which runs even when a test failed).
 */
export function fleetOnTestDatabase(options: { env?: Record<string, string>; timeoutMs?: number } = {}, started: (fleet: ServerFleet) => Promise<void> = async () => {}): FleetFixture {
  let database: TestDatabase | undefined;
  let fleet: ServerFleet | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    fleet = new ServerFleet({ databaseUrl: database.url, ...(options.env ? { env: options.env } : {}) });
    await started(fleet);
  }, options.timeoutMs);
  afterAll(async () => {
    await fleet?.stopAll();
    await database?.destroy();
  });
  return {
    get database() {
      return database!;
    },
    get fleet() {
      return fleet!;
    },
  };
}
