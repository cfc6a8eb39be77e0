// Platform load (issue 17): thousands of numbers sending at once, several worker processes, a quiet
// neighbour. One embedded PostgreSQL (or BENCH_DATABASE_URL), one API process (ROLE=api) and 1, 2, 4
// worker processes (ROLE=worker), all the service's real entry point, the simulator as the channel.
//  - 200 companies × 10 connected numbers = 2,000 lanes, each company running a campaign over its numbers;
//    PACING_SCALE = 1/30 makes every gap warming's floor of a new number (30 s) × scale = 1,000 ms, so
//    every number sends once a second (2,000 sends/s in all) and the planned gap of every send is known.
//  - Lateness of each number at the simulator: gap between two consecutive sends − the planned gap.
//  - Worker share: which process holds each lane, sampled twice a second in the window; the sends each
//    worker logged when it stopped; CPU seconds of every process (api, workers, postgres) from /proc.
//  - Quiet neighbour: a company with nothing queued sends single messages and lists its campaigns, first
//    on an idle system, then during each load.
// Run alone: BENCH_ONLY=platform npm run bench. Env: PLATFORM_LANES (2000), PLATFORM_NUMBERS (per company,
// 10), PLATFORM_GAP_MS (1000), PLATFORM_WORKERS (phases, "1,2,4"), PLATFORM_MAIN_WORKERS (the headline
// phase, 2), PLATFORM_WARMUP_SECONDS (15), PLATFORM_SECONDS (window of each phase, 30), PLATFORM_IDLE_SECONDS (15),
// PLATFORM_WORKER_POOL (each worker's DB_POOL_SIZE, 30: a worker holding 1,000 lanes runs ~2,000 transactions a second),
// PLATFORM_RECEIPT_DELAY_MS (the simulator's SIMULATOR_RECEIPT_DELAY_MS in every process; unset: the service's default).
import os from 'node:os';
import { sql } from 'kysely';
import { cpuTimes, startService, type ServerBuild } from './support/processes.js';
import { createPlatformCompany, inParallel, measureLateness, quietNeighbour, startCampaign, type LatenessFigures, type NeighbourFigures, type PlatformCompany } from './support/platform-load.js';
import { startWorkerProcess, type WorkerChild } from './support/platform-processes.js';
import { ADMIN_TOKEN, startBenchDatabase } from './support/tenant.js';

export const PLATFORM_TARGETS = { latenessP99Ms: 250, shareTolerance: 0.2, neighbourRatio: 2 };

export interface PlatformCpu {
  /** CPU seconds in the window, by process (worker-1, worker-2, …). */
  seconds: Record<string, number>;
  /** Share of the machine (cores × window) used, by process, in %. */
  percent: Record<string, number>;
  /** CPU milliseconds per send, by role. */
  msPerSend: { api: number; workers: number; postgres: number };
}

export interface PlatformPhase {
  workers: number;
  lateness: LatenessFigures;
  /** Each worker's share of the lanes held in the window (sampled), in order of start. */
  laneShares: number[];
  /** Sends each worker's lanes made over the whole phase (its own count at stop), null if it did not say. */
  sends: (number | null)[];
  /** Largest deviation of a worker's lane share from an even split, relative to it (0.1 = 10 %). */
  worstDeviation: number;
  cpu: PlatformCpu;
  neighbour: NeighbourFigures;
  /** 1-minute load average at the end of the window. */
  load: number;
}

export interface PlatformBenchResult {
  lanes: number;
  companies: number;
  numbersPerCompany: number;
  pacingScale: number;
  plannedGapMs: number;
  windowSeconds: number;
  idle: NeighbourFigures;
  phases: PlatformPhase[];
  mainWorkers: number;
}

const env = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function descendsFrom(table: ReturnType<typeof cpuTimes>, pid: number, ancestor: number): boolean {
  for (let at = table.get(pid), hops = 0; at && hops < 10; at = table.get(at.ppid), hops += 1) if (at.ppid === ancestor) return true;
  return false;
}

function cpuBreakdown(before: ReturnType<typeof cpuTimes>, after: ReturnType<typeof cpuTimes>, seconds: number, named: Record<string, number>, sends: number): PlatformCpu {
  const byPid = new Map(Object.entries(named).map(([name, pid]) => [pid, name]));
  const used: Record<string, number> = { ...Object.fromEntries(Object.keys(named).map((n) => [n, 0])), postgres: 0, bench: 0, other: 0 };
  for (const [pid, now] of after) {
    const delta = now.seconds - (before.get(pid)?.seconds ?? 0);
    if (delta <= 0) continue;
    const name = byPid.get(pid) ?? (pid === process.pid ? 'bench' : now.comm === 'postgres' && descendsFrom(after, pid, process.pid) ? 'postgres' : 'other');
    used[name] = (used[name] ?? 0) + delta;
  }
  const capacity = seconds * os.cpus().length;
  const workers = Object.entries(used).filter(([n]) => n.startsWith('worker')).reduce((a, [, v]) => a + v, 0);
  const per = (s: number) => (sends > 0 ? round((s * 1000) / sends, 3) : NaN);
  return {
    seconds: Object.fromEntries(Object.entries(used).map(([n, v]) => [n, round(v, 1)])),
    percent: Object.fromEntries(Object.entries(used).map(([n, v]) => [n, Math.round((v / capacity) * 100)])),
    msPerSend: { api: per(used.api ?? 0), workers: per(workers), postgres: per(used.postgres ?? 0) },
  };
}

export async function runPlatformBench(log: (line: string) => void = console.log, build: ServerBuild = 'source'): Promise<PlatformBenchResult> {
  const numbersPerCompany = env('PLATFORM_NUMBERS', 10);
  const lanes = env('PLATFORM_LANES', 2_000);
  const companies = Math.max(1, Math.round(lanes / numbersPerCompany));
  const plannedGapMs = env('PLATFORM_GAP_MS', 1_000);
  // A new number's warming floor is 30 s (above `normal`'s 5-15 s draw): every gap is 30 s × scale.
  const pacingScale = plannedGapMs / 30_000;
  const phasesWorkers = (process.env.PLATFORM_WORKERS ?? '1,2,4').split(',').map(Number).filter((n) => n > 0);
  const mainWorkers = env('PLATFORM_MAIN_WORKERS', phasesWorkers.includes(2) ? 2 : phasesWorkers[phasesWorkers.length - 1]!);
  const warmupSeconds = env('PLATFORM_WARMUP_SECONDS', 15);
  const windowSeconds = env('PLATFORM_SECONDS', 30);
  const idleSeconds = env('PLATFORM_IDLE_SECONDS', 15);
  const neighbourIntervalMs = env('PLATFORM_NEIGHBOUR_INTERVAL_MS', 100);

  const database = await startBenchDatabase('platform');
  const common: Record<string, string> = { DATABASE_URL: database.url, ADMIN_TOKEN, PACING_SCALE: String(pacingScale), LOG_LEVEL: 'info' };
  // The simulator's delivery receipts stay on (the service's default) unless set: 0 leaves them out, as the
  // dispatch benchmark does, to see the engine's own cost (a provider's receipts come by webhooks to API processes).
  if (process.env.PLATFORM_RECEIPT_DELAY_MS !== undefined) common.SIMULATOR_RECEIPT_DELAY_MS = process.env.PLATFORM_RECEIPT_DELAY_MS;
  const api = await startService('platform-api', build, { ...common, ROLE: 'api' });
  const workers: WorkerChild[] = [];
  try {
    log(`${companies} companies × ${numbersPerCompany} numbers = ${companies * numbersPerCompany} lanes, PACING_SCALE=${round(pacingScale, 5)} (planned gap ${plannedGapMs} ms)`);
    let started = Date.now();
    const tenants = await inParallel(Array.from({ length: companies }, (_, i) => i), 8, (i) => createPlatformCompany(api.baseUrl, database.db, `Platform ${i}`, numbersPerCompany));
    const neighbour = await createPlatformCompany(api.baseUrl, database.db, 'Quiet neighbour', 1);
    log(`set up in ${round((Date.now() - started) / 1000)} s`);

    const idleController = new AbortController();
    const idleRun = quietNeighbour(api.baseUrl, neighbour, neighbourIntervalMs, idleController.signal, 90_000_000);
    await sleep(idleSeconds * 1000);
    idleController.abort();
    const idle = await idleRun;
    log(`quiet neighbour, idle system: send p50 ${idle.sendP50Ms} ms p99 ${idle.sendP99Ms} ms (${idle.sends}); campaigns read p99 ${idle.readP99Ms} ms`);

    const phases: PlatformPhase[] = [];
    let offset = 0;
    for (const count of phasesWorkers) {
      // Enough recipients that no number runs out before the window ends.
      const perNumber = Math.ceil(((warmupSeconds + windowSeconds + 20) * 1000) / plannedGapMs);
      const recipients = perNumber * numbersPerCompany;
      started = Date.now();
      const campaignIds = await inParallel(tenants, 4, (t, i) => startCampaign(api.baseUrl, t, recipients, offset + i * recipients));
      offset += tenants.length * recipients;
      log(`phase ${count} worker(s): ${campaignIds.length} campaigns of ${recipients} created in ${round((Date.now() - started) / 1000)} s`);

      started = Date.now();
      const pool = String(env('PLATFORM_WORKER_POOL', 30));
      workers.push(...(await Promise.all(Array.from({ length: count }, (_, i) => startWorkerProcess(`platform-worker-${count}-${i + 1}`, build, { ...common, DB_POOL_SIZE: pool })))));
      const t0 = Date.now();
      log(`  ${count} worker(s) started in ${round((t0 - started) / 1000)} s; warming up ${warmupSeconds} s`);
      await sleep(warmupSeconds * 1000);

      const named: Record<string, number> = { api: api.pid };
      workers.forEach((w, i) => (named[`worker-${i + 1}`] = w.pid));
      const pidIndex = new Map(workers.map((w, i) => [w.pid, i]));
      const from = new Date();
      const cpuBefore = cpuTimes();
      const loadController = new AbortController();
      const loadRun = quietNeighbour(api.baseUrl, neighbour, neighbourIntervalMs, loadController.signal, 95_000_000 + offset);
      const held = new Array<number>(count).fill(0);
      // What the database's sessions wait on, sampled with the lanes (a diagnostic of where lateness comes from).
      const waits = new Map<string, number>();
      const windowEnd = Date.now() + windowSeconds * 1000;
      while (Date.now() < windowEnd) {
        const { rows } = await sql<{ pid: string; n: string }>`
          SELECT split_part(owner, ':', 2) AS pid, count(*) AS n FROM dispatch_lanes WHERE owner IS NOT NULL AND lease_until > now() GROUP BY 1`.execute(database.db);
        for (const row of rows) {
          const index = pidIndex.get(Number(row.pid));
          if (index !== undefined) held[index]! += Number(row.n);
        }
        const activity = await sql<{ what: string; n: string }>`
          SELECT coalesce(state, '?') || ' ' || coalesce(wait_event_type || ':' || wait_event, 'cpu') AS what, count(*) AS n
          FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() GROUP BY 1`.execute(database.db);
        for (const row of activity.rows) waits.set(row.what, (waits.get(row.what) ?? 0) + Number(row.n));
        await sleep(500);
      }
      const to = new Date();
      const cpuAfter = cpuTimes();
      loadController.abort();
      const neighbourLoaded = await loadRun;
      const load = os.loadavg()[0]!;
      const sends = await Promise.all(workers.map((w) => w.stop()));
      workers.length = 0;
      await database.db.updateTable('campaigns').set({ status: 'concluido' }).where('id', 'in', campaignIds).where('status', 'in', ['pendente', 'processando', 'pausado']).execute();

      const lateness = await measureLateness(database.db, tenants.map((t: PlatformCompany) => t.companyId), from, to, plannedGapMs);
      const totalHeld = held.reduce((a, b) => a + b, 0);
      const laneShares = held.map((h) => (totalHeld > 0 ? round(h / totalHeld, 3) : 0));
      const even = 1 / count;
      const worstDeviation = round(Math.max(...laneShares.map((s) => Math.abs(s - even) / even)), 3);
      const cpu = cpuBreakdown(cpuBefore, cpuAfter, (to.getTime() - from.getTime()) / 1000, named, lateness.sendsPerSecond * ((to.getTime() - from.getTime()) / 1000));
      phases.push({ workers: count, lateness, laneShares, sends, worstDeviation, cpu, neighbour: neighbourLoaded, load: round(load) });
      log(
        `  window ${windowSeconds} s: ${lateness.sendsPerSecond} sends/s from ${lateness.numbers} numbers; lateness p50 ${lateness.p50Ms} p95 ${lateness.p95Ms} p99 ${lateness.p99Ms} max ${lateness.maxMs} ms over ${lateness.gaps} gaps; below floor ${lateness.belowFloor}`,
      );
      log(`  lane shares ${laneShares.map((s) => `${round(s * 100)} %`).join(' / ')} (worst deviation ${round(worstDeviation * 100)} %); sends per worker over the phase ${sends.join(' / ')}`);
      log(`  CPU % of the machine: ${Object.entries(cpu.percent).map(([n, v]) => `${n} ${v}`).join(', ')}; ms per send: api ${cpu.msPerSend.api}, workers ${cpu.msPerSend.workers}, postgres ${cpu.msPerSend.postgres}`);
      const samples = Math.max(1, Math.round((to.getTime() - from.getTime()) / 500));
      log(`  database sessions on average: ${[...waits].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([w, n]) => `${w} ${round(n / samples)}`).join(', ')}`);
      log(`  quiet neighbour during the load: send p50 ${neighbourLoaded.sendP50Ms} p99 ${neighbourLoaded.sendP99Ms} ms (${round(neighbourLoaded.sendP99Ms / idle.sendP99Ms, 2)}× idle); read p99 ${neighbourLoaded.readP99Ms} ms; load ${round(load)}`);
    }
    return { lanes: companies * numbersPerCompany, companies, numbersPerCompany, pacingScale, plannedGapMs, windowSeconds, idle, phases, mainWorkers };
  } finally {
    await Promise.all(workers.map((w) => w.stop().catch(() => null)));
    await api.stop();
    await database.stop();
  }
}

type Row = { figure: string; result: string; baseline: string; target: string; ok: boolean | null };

export function platformRows(r: PlatformBenchResult | undefined): Row[] {
  if (!r) return [];
  const out: Row[] = [];
  const main = r.phases.find((p) => p.workers === r.mainWorkers) ?? r.phases[r.phases.length - 1];
  if (main) {
    out.push({
      figure: `Platform load: ${r.lanes.toLocaleString('en-US')} numbers in ${r.companies} companies, one send a second each, ${main.workers} workers: lateness p50 / p99 / max`,
      result: `${main.lateness.p50Ms} / ${main.lateness.p99Ms} / ${main.lateness.maxMs} ms at ${main.lateness.sendsPerSecond.toLocaleString('en-US')} sends/s; ${main.lateness.belowFloor} gaps below floor`,
      baseline: `planned gap ${r.plannedGapMs} ms`,
      target: `p99 < ${PLATFORM_TARGETS.latenessP99Ms} ms, 0 below floor`,
      ok: main.lateness.p99Ms < PLATFORM_TARGETS.latenessP99Ms && main.lateness.belowFloor === 0,
    });
    out.push({
      figure: `Quiet neighbour's single send during the load (p99), ${main.workers} workers`,
      result: `${main.neighbour.sendP99Ms} ms`,
      baseline: `idle system: ${r.idle.sendP99Ms} ms`,
      target: `≤ ${PLATFORM_TARGETS.neighbourRatio}× idle`,
      ok: main.neighbour.sendP99Ms <= PLATFORM_TARGETS.neighbourRatio * r.idle.sendP99Ms,
    });
  }
  for (const p of r.phases.filter((x) => x.workers > 1)) {
    out.push({
      figure: `Worker share, ${p.workers} worker processes (lanes held in the window)`,
      result: `${p.laneShares.map((s) => `${Math.round(s * 1000) / 10} %`).join(' / ')}`,
      baseline: `even: ${Math.round(1000 / p.workers) / 10} % each`,
      target: `each within ±${PLATFORM_TARGETS.shareTolerance * 100} % of even`,
      ok: p.worstDeviation <= PLATFORM_TARGETS.shareTolerance,
    });
  }
  return out;
}

export function platformSection(r: PlatformBenchResult | undefined, error?: string): string[] {
  const L = ['## Platform load', ''];
  L.push(
    '`bench/platform.bench.ts` (`runPlatformBench()`; env `PLATFORM_LANES` 2000, `PLATFORM_NUMBERS` 10 per company, `PLATFORM_GAP_MS`',
    '1000, `PLATFORM_WORKERS` "1,2,4", `PLATFORM_MAIN_WORKERS` 2, `PLATFORM_WARMUP_SECONDS` 15, `PLATFORM_SECONDS` 30,',
    '`PLATFORM_IDLE_SECONDS` 15, `PLATFORM_WORKER_POOL` 30). One embedded PostgreSQL; one API process (`ROLE=api`) and 1, 2',
    'then 4 worker processes (`ROLE=worker`, `DB_POOL_SIZE` 30), all `apps/server/dist/main.js` as `npm start` runs it; the',
    'simulator as the channel.',
    '',
    '- **Load**: 200 companies × 10 connected numbers, each company running a campaign over its numbers. `PACING_SCALE` =',
    '  1/30: a new number\'s warming floor (30 s, above `normal`\'s 5-15 s draw) makes every planned gap 1,000 ms, so each',
    '  number sends once a second (2,000 sends/s in all) and the plan of every send is known. Each phase starts new',
    '  campaigns, starts its workers, waits a warm-up, then measures a window.',
    '- **Lateness**: from the simulator outbox, for every two consecutive sends of one number inside the window, their',
    '  gap minus the planned gap; a gap below the floor would be a pacing violation.',
    '- **Worker share**: which process holds each lane\'s lease, sampled every 0.5 s in the window (each lane sends once a',
    '  second, so lanes held is sends made); also the sends each worker\'s lanes counted over the phase.',
    '- **CPU**: CPU seconds of every process in the window from `/proc/<pid>/stat` (api, each worker, this run\'s',
    '  PostgreSQL, the load generator `bench`, everyone else on the machine as `other`).',
    '- **Quiet neighbour**: a company with one number and nothing queued sends `POST /v1/messages` and reads',
    '  `GET /v1/campaigns` every 100 ms, first on the idle system (before any worker runs), then in every window.',
    '',
  );
  if (!r) {
    L.push(`Did not run: ${error ?? 'skipped'}`, '');
    return L;
  }
  L.push(
    '| Workers | Sends/s | Lateness p50 / p95 / p99 / max (ms) | Below floor | Lane share per worker | Sends per worker (phase) | Neighbour send p50 / p99 (ms) | Load |',
    '|---|---|---|---|---|---|---|---|',
  );
  for (const p of r.phases) {
    const l = p.lateness;
    L.push(
      `| ${p.workers} | ${l.sendsPerSecond.toLocaleString('en-US')} | ${l.p50Ms} / ${l.p95Ms} / ${l.p99Ms} / ${l.maxMs} | ${l.belowFloor} | ${p.laneShares.map((s) => `${Math.round(s * 1000) / 10} %`).join(' / ')} | ${p.sends.map((s) => (s === null ? '?' : s.toLocaleString('en-US'))).join(' / ')} | ${p.neighbour.sendP50Ms} / ${p.neighbour.sendP99Ms} | ${p.load} |`,
    );
  }
  L.push('', `Quiet neighbour on the idle system: send p50 / p99 ${r.idle.sendP50Ms} / ${r.idle.sendP99Ms} ms, campaigns read p50 / p99 ${r.idle.readP50Ms} / ${r.idle.readP99Ms} ms.`, '');
  L.push('CPU in each window, % of the machine (cores × window), and CPU milliseconds per send:', '');
  L.push('| Workers | api | workers (each) | postgres | bench | other | ms/send api / workers / postgres |', '|---|---|---|---|---|---|---|');
  for (const p of r.phases) {
    const c = p.cpu.percent;
    const each = Object.entries(c).filter(([n]) => n.startsWith('worker')).map(([, v]) => `${v}`).join(' + ');
    L.push(`| ${p.workers} | ${c.api} % | ${each} % | ${c.postgres} % | ${c.bench} % | ${c.other} % | ${p.cpu.msPerSend.api} / ${p.cpu.msPerSend.workers} / ${p.cpu.msPerSend.postgres} |`);
  }
  L.push('');
  return L;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runPlatformBench(console.log, (process.env.BENCH_SERVER as ServerBuild | undefined) ?? 'source');
}
