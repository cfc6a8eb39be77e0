// Worker processes of the platform benchmark: the service's own entry point with ROLE=worker (no HTTP
// server), ready when its log says "worker started". Each is stopped by its own PID (SIGTERM: its lanes
// release their leases and it logs how many messages its lanes sent).
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { BENCH_DIR, ROOT, SERVER_NODE_FLAGS, type ServerBuild } from './processes.js';

const LOADER = path.join(ROOT, 'scripts/ts-loader/register.mjs');

export interface WorkerChild {
  pid: number;
  logFile: string;
  /** SIGTERM (SIGKILL after 20 s); resolves with the lanes' send count the worker logged when it stopped, or null. */
  stop(): Promise<number | null>;
}

function readLog(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** The `sent` of the last "campaign lanes stopped" line of a worker log (LaneRunner.stop). */
export function lanesSentInLog(file: string): number | null {
  let sent: number | null = null;
  for (const line of readLog(file).split('\n')) {
    if (!line.includes('campaign lanes stopped')) continue;
    try {
      const parsed = JSON.parse(line) as { sent?: number };
      if (typeof parsed.sent === 'number') sent = parsed.sent;
    } catch {
      // not a JSON log line
    }
  }
  return sent;
}

export async function startWorkerProcess(name: string, build: ServerBuild, env: Record<string, string>, timeoutMs = 120_000): Promise<WorkerChild> {
  await mkdir(BENCH_DIR, { recursive: true });
  const logFile = path.join(BENCH_DIR, `${name}.log`);
  const fd = openSync(logFile, 'w');
  const args = build === 'dist' ? [path.join(ROOT, 'apps/server/dist/main.js')] : ['--import', LOADER, path.join(ROOT, 'apps/server/src/main.ts')];
  const nodeArgs = [...SERVER_NODE_FLAGS, ...(process.env.BENCH_CHILD_NODE_ARGS ?? '').split(' ')].filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', ...env, ROLE: 'worker' },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    }
    return lanesSentInLog(logFile);
  };
  const deadline = Date.now() + timeoutMs;
  while (!readLog(logFile).includes('worker started')) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`worker ${name} exited before starting; log ${logFile}:\n${readLog(logFile).slice(-3000)}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`worker ${name} did not start within ${timeoutMs} ms; log ${logFile}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { pid: child.pid!, logFile, stop };
}
