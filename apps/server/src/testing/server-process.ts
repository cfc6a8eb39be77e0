// Real server processes for the process-level tests (scale-out, chaos, database cuts, shutdown):
// `apps/server/src/main.ts` run from the TypeScript sources through the module hooks the worker
// crash test already uses (scripts/ts-loader/register.mjs), so no build is needed
// and a test never runs stale compiled code.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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

  constructor(private readonly base: { databaseUrl: string; env?: Record<string, string> }) {}

  async start(role: Role, env: Record<string, string> = {}, { readyTimeoutMs = 45_000 } = {}): Promise<ServerProcess> {
    const port = role === 'worker' ? 0 : await freePort();
    const child: ChildProcess = spawn(process.execPath, ['--import', REGISTER_TS, MAIN_TS], {
      cwd: root,
      env: {
        ...process.env,
        // Jest's --experimental-vm-modules is not for the child.
        NODE_OPTIONS: '',
        ROLE: role,
        DATABASE_URL: this.base.databaseUrl,
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
    };
    this.children.add(proc);
    try {
      await eventually(
        async () => {
          if (proc.exit) throw new Error(`${role} process exited during start-up (${JSON.stringify(proc.exit)}):\n${output.slice(-4_000)}`);
          const apiUp = proc.url === null || (await fetch(`${proc.url}/healthz`).then((r) => r.ok, () => false));
          const workerUp = role === 'api' || output.includes('worker started');
          return apiUp && workerUp;
        },
        { timeoutMs: readyTimeoutMs, intervalMs: 50 },
      );
    } catch (error) {
      throw new Error(`${role} process did not start: ${(error as Error).message}\n${output.slice(-4_000)}`);
    }
    return proc;
  }

  /** SIGKILLs a process and waits until it is gone. */
  async kill(proc: ServerProcess): Promise<ProcessExit> {
    proc.kill('SIGKILL');
    return proc.exited;
  }

  /** SIGKILLs every child still alive and waits for them. */
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
  }

  get alive(): ServerProcess[] {
    return [...this.children];
  }
}
