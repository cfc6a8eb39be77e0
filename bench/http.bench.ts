// HTTP benchmark: authenticated GET /v1/campaigns/:id on the real service (apps/server main,
// ROLE=api, on an embedded PostgreSQL) against a bare Express hello-world, both in child processes,
// loaded by autocannon from this process with the same connections and duration, warm-up first.
// Run alone: node --import ./scripts/ts-loader/register.mjs bench/http.bench.ts
// Env: BENCH_HTTP_CONNECTIONS (default 32), BENCH_HTTP_SECONDS (measured, default 10),
//      BENCH_HTTP_WARMUP_SECONDS (default 3), BENCH_HTTP_ROUNDS (alternations, default 2),
//      BENCH_SERVER=dist|source (see support/processes.ts), BENCH_DATABASE_URL.
import path from 'node:path';
import autocannon from 'autocannon';
import { performance } from 'node:perf_hooks';
import { cpuShares, cpuTimes, startHelloWorld, startService, type ChildServer, type ServerBuild } from './support/processes.js';
import { ADMIN_TOKEN, createCampaign, createTenant, startBenchDatabase } from './support/tenant.js';
import { env } from './support/measure.js';

export interface HttpFigures {
  requests: number;
  seconds: number;
  perSecond: number;
  medianMs: number;
  p99Ms: number;
}

export interface HttpBenchResult {
  connections: number;
  seconds: number;
  warmupSeconds: number;
  rounds: number;
  bare: HttpFigures;
  ours: HttpFigures;
  /** ours / bare throughput. */
  ratio: number;
  postgresVersion: string;
  /** Machine CPU by process during the last measured round of each (%, of all cores). */
  cpu: Record<string, Record<string, number>>;
}

interface Load {
  url: string;
  headers?: Record<string, string>;
}

/** CPU shares of the last measured runs, by process, in % of the machine. */
const cpu: Record<string, Record<string, number>> = {};

async function load(target: Load, connections: number, seconds: number, named?: Record<string, number>, label?: string): Promise<autocannon.Result> {
  const before = cpuTimes();
  const started = performance.now();
  const result = await autocannon({ url: target.url, headers: target.headers, connections, duration: seconds, pipelining: 1 });
  if (named && label) cpu[label] = cpuShares(before, cpuTimes(), (performance.now() - started) / 1000, named);
  if (result.errors > 0 || result.non2xx > 0) {
    throw new Error(`${target.url}: ${result.non2xx} non-2xx answers and ${result.errors} errors under load`);
  }
  return result;
}

function combine(results: autocannon.Result[]): HttpFigures {
  const requests = results.reduce((n, r) => n + r['2xx'], 0);
  const seconds = results.reduce((n, r) => n + r.duration, 0);
  // Percentiles of several runs: the worst round's, so that no bad round is averaged away.
  return {
    requests,
    seconds: Number(seconds.toFixed(2)),
    perSecond: Math.round(requests / seconds),
    medianMs: Math.max(...results.map((r) => r.latency.p50)),
    p99Ms: Math.max(...results.map((r) => r.latency.p99)),
  };
}

export async function runHttpBench(log: (line: string) => void = console.log, build: ServerBuild = 'dist'): Promise<HttpBenchResult> {
  const connections = env('BENCH_HTTP_CONNECTIONS', 32);
  const seconds = env('BENCH_HTTP_SECONDS', 10);
  const warmupSeconds = env('BENCH_HTTP_WARMUP_SECONDS', 3);
  const rounds = env('BENCH_HTTP_ROUNDS', 2);

  const database = await startBenchDatabase('http');
  let hello: ChildServer | null = null;
  let service: ChildServer | null = null;
  try {
    hello = await startHelloWorld({ NODE_ENV: 'production' });
    service = await startService('http-api', build, {
      ROLE: 'api',
      DATABASE_URL: database.url,
      ADMIN_TOKEN,
      NODE_ENV: 'production',
    });
    const tenant = await createTenant(service.baseUrl, database.db, 1);
    const campaignId = await createCampaign(service.baseUrl, tenant.key, 100);
    const bare: Load = { url: `${hello.baseUrl}/` };
    const ours: Load = { url: `${service.baseUrl}/v1/campaigns/${campaignId}`, headers: { authorization: `Bearer ${tenant.key}` } };
    const check = await fetch(ours.url, { headers: ours.headers });
    if (check.status !== 200) throw new Error(`GET /v1/campaigns/:id answered ${check.status}: ${await check.text()}`);

    log(`warm-up: ${warmupSeconds} s each, ${connections} connections`);
    await load(bare, connections, warmupSeconds);
    await load(ours, connections, warmupSeconds);
    const bareRuns: autocannon.Result[] = [];
    const ourRuns: autocannon.Result[] = [];
    for (let round = 0; round < rounds; round += 1) {
      // Alternating rounds: both servers see the same background load of a shared machine.
      const named = { 'load generator': process.pid, 'hello-world': hello.pid, service: service.pid };
      bareRuns.push(await load(bare, connections, seconds, named, 'bare'));
      ourRuns.push(await load(ours, connections, seconds, named, 'ours'));
      log(`round ${round + 1}: bare ${Math.round(bareRuns.at(-1)!['2xx'] / bareRuns.at(-1)!.duration)} req/s, ours ${Math.round(ourRuns.at(-1)!['2xx'] / ourRuns.at(-1)!.duration)} req/s`);
    }
    const result: HttpBenchResult = {
      connections,
      seconds,
      warmupSeconds,
      rounds,
      bare: combine(bareRuns),
      ours: combine(ourRuns),
      ratio: 0,
      postgresVersion: database.version,
      cpu,
    };
    result.ratio = Number((result.ours.perSecond / result.bare.perSecond).toFixed(3));
    log(`bare Express hello-world: ${result.bare.perSecond} req/s, p99 ${result.bare.p99Ms} ms`);
    log(`GET /v1/campaigns/:id (key, rate limit, read): ${result.ours.perSecond} req/s, p99 ${result.ours.p99Ms} ms = ${(result.ratio * 100).toFixed(1)} % of bare`);
    for (const [label, shares] of Object.entries(cpu)) log(`CPU during ${label}: ${Object.entries(shares).map(([k, v]) => `${k} ${v} %`).join(', ')}`);
    return result;
  } finally {
    await service?.stop();
    await hello?.stop();
    await database.stop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  await runHttpBench(console.log, (process.env.BENCH_SERVER as ServerBuild | undefined) ?? 'dist');
}
