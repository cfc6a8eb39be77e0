// Child processes for the benchmarks that must not share the load generator's event loop: the
// service's real entry point (apps/server main, compiled by `tsc -b` as `npm start` runs it) and a
// bare Express hello-world. Each child is stopped by its own PID.
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync, readFileSync, readdirSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@carteiro/postgres';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Scratch space of a bench run (git-ignored): logs of the child processes. */
export const BENCH_DIR = path.join(ROOT, '.bench');

/** `config.nodeFlags` of the root package.json: how `npm start` runs the service. */
export const SERVER_NODE_FLAGS: string[] = (
  (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { config?: { nodeFlags?: string } }).config?.nodeFlags ?? ''
)
  .split(' ')
  .filter(Boolean);
const LOADER = path.join(ROOT, 'scripts/ts-loader/register.mjs');

/**
 * How the service runs in a child: `dist` (default) is the compiled `apps/server/dist/main.js`, as
 * `npm start` runs it; `source` runs the TypeScript sources through the repository's esbuild loader
 * (used when `tsc -b` fails because of someone's unfinished code).
 */
export type ServerBuild = 'dist' | 'source';

export interface ChildServer {
  pid: number;
  port: number;
  baseUrl: string;
  logFile: string;
  /** SIGTERM, then SIGKILL after a grace period; resolves when the process has exited. */
  stop(): Promise<void>;
}

async function waitForHttp(url: string, child: ChildProcess, logFile: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`child exited (${child.exitCode ?? child.signalCode}) before answering; log ${logFile}:\n${tail(logFile)}`);
    }
    const ok = await fetch(url).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`child did not answer ${url} within ${timeoutMs} ms; log ${logFile}:\n${tail(logFile)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-30).join('\n');
  } catch {
    return '(no log)';
  }
}

async function spawnServer(name: string, args: string[], env: NodeJS.ProcessEnv, readyPath: string): Promise<ChildServer> {
  await mkdir(BENCH_DIR, { recursive: true });
  const port = await freePort();
  const logFile = path.join(BENCH_DIR, `${name}.log`);
  // Output goes to a file, not a pipe: the benchmark process must not spend its loop reading logs.
  const fd = openSync(logFile, 'w');
  // BENCH_CHILD_NODE_ARGS: diagnostics for the children only, e.g. `--cpu-prof --cpu-prof-dir=.bench/prof`.
  // The Node flags `npm start` runs the service with (package.json config.nodeFlags), given to every child server,
  // the bare baseline included, so that both are measured alike; BENCH_CHILD_NODE_ARGS adds more (e.g. profiling).
  const nodeArgs = [...SERVER_NODE_FLAGS, ...(process.env.BENCH_CHILD_NODE_ARGS ?? '').split(' ')].filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, ...args], {
    cwd: ROOT,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await waitForHttp(`${baseUrl}${readyPath}`, child, logFile, 120_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return { pid: child.pid!, port, baseUrl, logFile, stop };
}

/** The service's main entry (`ROLE`, `DATABASE_URL`, `PACING_SCALE`, … from `env`). Ready when /readyz answers 200. */
export function startService(name: string, build: ServerBuild, env: Record<string, string>): Promise<ChildServer> {
  const args = build === 'dist' ? [path.join(ROOT, 'apps/server/dist/main.js')] : ['--import', LOADER, path.join(ROOT, 'apps/server/src/main.ts')];
  // The worker-only role has no HTTP server; every caller here runs the API.
  return spawnServer(name, args, { ...process.env, ...env }, '/readyz');
}

/** A bare Express 5 hello-world, the ceiling of any Express application on this machine. */
export function startHelloWorld(env: Record<string, string> = {}): Promise<ChildServer> {
  return spawnServer('hello-world', [path.join(ROOT, 'bench/support/hello-world.mjs')], { ...process.env, ...env }, '/');
}

/** Resident set size of a process in bytes (Linux: VmRSS in /proc/<pid>/status), or null once it has gone. */
export function rssOf(pid: number): number | null {
  try {
    const match = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) used so far by every process, by PID, from /proc (Linux). */
export function cpuTimes(): Map<number, { comm: string; ppid: number; seconds: number }> {
  const ticks = 100; // USER_HZ: 100 on every Linux platform Node supports
  const out = new Map<number, { comm: string; ppid: number; seconds: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const fields = stat.slice(close + 2).split(' ');
      out.set(Number(entry), { comm, ppid: Number(fields[1]), seconds: (Number(fields[11]) + Number(fields[12])) / ticks });
    } catch {
      // the process ended between the listing and the read
    }
  }
  return out;
}

/**
 * Share of the machine's CPU time during a span, by who used it: the given processes by name,
 * this run's PostgreSQL (`postgres` processes descending from this process), and everyone else
 * (other users of a shared machine, other databases).
 */
export function cpuShares(before: ReturnType<typeof cpuTimes>, after: ReturnType<typeof cpuTimes>, seconds: number, named: Record<string, number>): Record<string, number> {
  const capacity = seconds * os.cpus().length;
  const shares: Record<string, number> = { postgres: 0, other: 0 };
  for (const name of Object.keys(named)) shares[name] = 0;
  const byPid = new Map(Object.entries(named).map(([name, pid]) => [pid, name]));
  for (const [pid, now] of after) {
    const used = now.seconds - (before.get(pid)?.seconds ?? 0);
    if (used <= 0) continue;
    const name = byPid.get(pid) ?? (now.comm === 'postgres' && descendsFrom(after, pid, process.pid) ? 'postgres' : 'other');
    shares[name] = (shares[name] ?? 0) + used;
  }
  for (const name of Object.keys(shares)) shares[name] = Math.round((shares[name]! / capacity) * 100);
  return shares;
}

export function descendsFrom(table: ReturnType<typeof cpuTimes>, pid: number, ancestor: number): boolean {
  for (let at = table.get(pid), hops = 0; at && hops < 10; at = table.get(at.ppid), hops += 1) {
    if (at.ppid === ancestor) return true;
  }
  return false;
}
