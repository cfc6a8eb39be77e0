// Tickets benchmark (issue 12), through the real service (apps/server main, ROLE=api, in a child process, on an
// embedded PostgreSQL), loaded from this process:
//  1. GET /v1/tickets, first page and a deep cursor page (reached by following the list's own cursors), with
//     BENCH_TICKETS tickets and BENCH_TICKET_CONTACTS contacts in one company, seeded by generate_series SQL into
//     contacts, conversations and tickets (migration 0015), at a fixed rate (an open load with Poisson arrivals,
//     support/paced-load.ts); baseline: GET /v1/me (the same key check and rate-limit write, no list) at the same rate,
//     in the same run, alternating with the lists.
//  2. Inbound handling throughput: POST /admin/v1/simulator/inbound for many distinct numbers plus some repeats, in a
//     company with 50 enabled tag rules; baseline: the same in a company without rules.
// Run alone: node --import ./scripts/ts-loader/register.mjs bench/tickets.bench.ts   (or BENCH_ONLY=tickets npm run bench)
// Env: BENCH_TICKETS (1000000), BENCH_TICKET_CONTACTS (200000), BENCH_TICKETS_DEEP (rows before the deep page, 10000),
//      BENCH_TICKETS_RATE (req/s, 200), BENCH_TICKETS_SECONDS (per measured run, 10), BENCH_TICKETS_ROUNDS (2),
//      BENCH_TICKETS_WARMUP_SECONDS (per URL, 2),
//      BENCH_INBOUND (messages per measured run, 5000; 0 skips the inbound part: a list-only run), BENCH_INBOUND_CONNECTIONS (16), BENCH_INBOUND_RULES (50),
//      BENCH_TICKETS_PLANS=1 (print the EXPLAIN ANALYZE of the list query for both pages), BENCH_SERVER=dist|source,
//      BENCH_DATABASE_URL.
// Smoke run (< 1 min on a quiet machine): BENCH_TICKETS=20000 BENCH_TICKET_CONTACTS=5000 BENCH_TICKETS_DEEP=1000 \
//   BENCH_TICKETS_SECONDS=2 BENCH_TICKETS_ROUNDS=1 BENCH_TICKETS_WARMUP_SECONDS=1 BENCH_INBOUND=300 BENCH_INBOUND_RULES=10 \
//   BENCH_SERVER=source node --import ./scripts/ts-loader/register.mjs bench/tickets.bench.ts
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { kyselyRepositories, type Database } from '@carteiro/postgres';
import { cpuTimes, descendsFrom, startService, type ChildServer, type ServerBuild } from './support/processes.js';
import { ADMIN_TOKEN, createTenant, startBenchDatabase, type Tenant } from './support/tenant.js';
import { env, round } from './support/measure.js';
import { inBatches, loadWithIndexesRebuilt } from './support/seed.js';
import { pacedLoad, sortedPercentile, type PacedLoadResult } from './support/paced-load.js';

/** Targets of issue 12. */
export const TICKETS_TARGETS = { listP99Ms: 20, inboundPerSecond: 1_000 };

export interface RateFigures {
  requests: number;
  /** Requests per second achieved (should equal the offered rate). */
  perSecond: number;
  medianMs: number;
  p99Ms: number;
  maxMs: number;
  /** CPU time of the service process and PostgreSQL per request (ms): what the figure costs, whatever else runs on the machine. */
  cpuMsPerRequest: number;
  /** The service process's share of it (ms): the rest is PostgreSQL's. */
  serviceCpuMsPerRequest: number;
  /** How late the load generator's own timer fired, p99 (ms): the client's delay, left out of the latencies. */
  generatorLagP99Ms: number;
  /** Bytes of an answer. */
  bodyBytes: number;
}

export interface TicketsBenchResult {
  tickets: number;
  contacts: number;
  activeTickets: number;
  seedSeconds: number;
  rate: number;
  seconds: number;
  rounds: number;
  deepRows: number;
  /** Execution time of the list statement alone (EXPLAIN ANALYZE, one run): first page, deep page. */
  planMs: { first: number; deep: number };
  me: RateFigures;
  firstPage: RateFigures;
  deepPage: RateFigures;
  /** Null when skipped (BENCH_INBOUND=0: a list-only run). */
  inbound: {
    messages: number;
    distinct: number;
    connections: number;
    rules: number;
    withRules: { perSecond: number; medianMs: number; p99Ms: number; cpuMsPerMessage: number; tagged: number };
    withoutRules: { perSecond: number; medianMs: number; p99Ms: number; cpuMsPerMessage: number };
  } | null;
}

const FIRST = ['Ana', 'Bruno', 'Carla', 'Diego', 'Elisa', 'Fábio', 'Gabriela', 'Heitor', 'Íris', 'João', 'Karina', 'Lucas', 'Marina', 'Nuno', 'Otávio', 'Paula'];
const LAST = ['Silva', 'Souza', 'Oliveira', 'Santos', 'Lima', 'Pereira', 'Costa', 'Rodrigues', 'Almeida', 'Nascimento', 'Araújo', 'Ribeiro'];
const WORDS = ['orçamento', 'preço', 'entrega', 'boleto', 'pix', 'cancelar', 'reclamação', 'agendar', 'horário', 'desconto', 'frete', 'garantia', 'troca', 'nota fiscal', 'parcelar', 'urgente'];

async function call<T>(baseUrl: string, method: string, route: string, auth: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl}${route}`, {
    method,
    headers: { Authorization: `Bearer ${auth}`, 'Content-Type': 'application/json' },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${route} answered ${res.status}: ${text.slice(0, 300)}`);
  return (JSON.parse(text) as { data: T }).data;
}

/** CPU seconds used by the service process and by this run's PostgreSQL (its processes descend from this one) between two readings. */
function serverCpuSeconds(before: ReturnType<typeof cpuTimes>, after: ReturnType<typeof cpuTimes>, servicePid: number): number {
  let used = 0;
  for (const [pid, now] of after) {
    if (pid !== servicePid && !(now.comm === 'postgres' && descendsFrom(after, pid, process.pid))) continue;
    used += now.seconds - (before.get(pid)?.seconds ?? 0);
  }
  return used;
}

/**
 * An open load at `rate` req/s (support/paced-load.ts: Poisson arrivals, each request on a free keep-alive socket,
 * timed from its start to the end of its answer); any non-2xx answer or error fails the run. Not autocannon's
 * `overallRate`: it resets each connection's quota every second, so its 10 connections sent their 20 requests each back
 * to back at the start of every second, and every request waited behind up to nine others (a median of about ten
 * service times), however fast the service.
 */
async function atRate(url: string, key: string, rate: number, seconds: number, seed: number): Promise<PacedLoadResult> {
  const result = await pacedLoad({ url, headers: { authorization: `Bearer ${key}` }, rate, seconds, arrivals: 'poisson', seed });
  if (result.failures > 0) throw new Error(`${url}: ${result.failures} failed requests at ${rate} req/s (first: ${result.firstFailure})`);
  return result;
}

function combine(results: PacedLoadResult[], cpuSeconds: number, serviceCpuSeconds: number): RateFigures {
  const requests = results.reduce((n, r) => n + r.requests, 0);
  const seconds = results.reduce((n, r) => n + r.duration, 0);
  const worst = (f: (r: PacedLoadResult) => number) => round(Math.max(...results.map(f)), 1);
  // Several rounds: the worst round's percentiles, so that no bad round is averaged away.
  return {
    requests,
    perSecond: Math.round(requests / seconds),
    medianMs: worst((r) => sortedPercentile(r.latencies, 50)),
    p99Ms: worst((r) => sortedPercentile(r.latencies, 99)),
    maxMs: worst((r) => r.latencies.at(-1) ?? NaN),
    cpuMsPerRequest: round((cpuSeconds * 1000) / Math.max(1, requests), 2),
    serviceCpuMsPerRequest: round((serviceCpuSeconds * 1000) / Math.max(1, requests), 2),
    generatorLagP99Ms: worst((r) => sortedPercentile(r.generatorLagMs, 99)),
    bodyBytes: results.at(-1)?.bodyBytes ?? 0,
  };
}

/**
 * Contacts, one conversation each on the box, and tickets: ticket g belongs to contact g % contacts, so each contact has
 * tickets / contacts of them over time; a contact's last ticket is active for half the contacts (open 70 %, pending 10 %,
 * snoozed 20 %), every other ticket is closed (a third rated). Activity spreads over about a year, newest last.
 */
async function seed(database: Awaited<ReturnType<typeof startBenchDatabase>>, tenant: Tenant, total: number, contacts: number): Promise<number> {
  const { db } = database;
  const company = tenant.companyId;
  const setor = tenant.setorIds[0]!;
  const salt = randomUUID();
  await loadWithIndexesRebuilt(db, 'contacts', [], () =>
    inBatches(contacts, 100_000, (from, to) =>
      sql`
        INSERT INTO contacts (id, company_id, phone, phone_key, name, email, created_at, updated_at)
        SELECT md5(${salt}::text || 'c' || g)::uuid, ${company}::uuid, '+55119' || (70000000 + g), '+5511' || (70000000 + g),
               (${FIRST}::text[])[1 + g % ${FIRST.length}] || ' ' || (${LAST}::text[])[1 + (g / 7) % ${LAST.length}] || ' ' || g,
               'c' || g || '@example.com', now() - interval '400 days', now() - interval '400 days'
        FROM generate_series(${from}::int, ${to}::int) AS g`.execute(db),
    ),
  );
  await loadWithIndexesRebuilt(db, 'conversations', [], () =>
    inBatches(contacts, 100_000, (from, to) =>
      sql`
        INSERT INTO conversations (id, company_id, setor_id, contact_id, last_inbound_at, last_outbound_at, created_at, updated_at)
        SELECT md5(${salt}::text || 'v' || g)::uuid, ${company}::uuid, ${setor}::uuid, md5(${salt}::text || 'c' || g)::uuid,
               now() - (g % 86400) * interval '1 second', now() - (g % 86400) * interval '1 second',
               now() - interval '400 days', now()
        FROM generate_series(${from}::int, ${to}::int) AS g`.execute(db),
    ),
  );
  await loadWithIndexesRebuilt(db, 'tickets', [], () =>
    inBatches(total, 100_000, (from, to) =>
      sql`
        WITH g AS (
          SELECT g, g % ${contacts} AS c,
                 now() - (${total} - g) * interval '30 seconds' + ((g::bigint * 7919) % 600) * interval '1 second' AS at,
                 CASE WHEN g + ${contacts} >= ${total} AND (g % ${contacts}) % 2 = 0
                      THEN (ARRAY['open','open','open','open','open','open','open','pending','snoozed','snoozed'])[1 + ((g % ${contacts}) / 2) % 10]
                      ELSE 'closed' END AS status,
                 (ARRAY[NULL,NULL,NULL,NULL,'low','medium','high','urgent'])[1 + (g / 3) % 8] AS priority
          FROM generate_series(${from}::int, ${to}::int) AS g
        )
        INSERT INTO tickets (id, company_id, number, status, priority, priority_rank, setor_id, contact_id, conversation_id,
                             snoozed_until, waiting_since, last_message, last_activity_at, source, closed_at, close_reason,
                             rating_status, rating_score, rated_at, rating_source, version, created_at, updated_at)
        SELECT md5(${salt}::text || 't' || g)::uuid, ${company}::uuid, g + 1, status, priority,
               CASE priority WHEN 'urgent' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 WHEN 'low' THEN 3 ELSE 4 END,
               ${setor}::uuid, md5(${salt}::text || 'c' || c)::uuid, md5(${salt}::text || 'v' || c)::uuid,
               CASE WHEN status = 'snoozed' THEN now() + interval '1 day' END,
               CASE WHEN status = 'open' THEN at END,
               jsonb_build_object('id', md5(${salt}::text || 'm' || g)::uuid, 'direction', 'inbound', 'type', 'message',
                                  'preview', 'Olá, preciso de ajuda com o pedido ' || g, 'at', at),
               at, 'inbound',
               CASE WHEN status = 'closed' THEN at END, CASE WHEN status = 'closed' AND g % 5 = 0 THEN 'resolvido' END,
               CASE WHEN status <> 'closed' THEN 'none' WHEN g % 3 = 0 THEN 'rated' ELSE 'expired' END,
               CASE WHEN status = 'closed' AND g % 3 = 0 THEN 1 + g % 5 END,
               CASE WHEN status = 'closed' AND g % 3 = 0 THEN at END,
               CASE WHEN status = 'closed' AND g % 3 = 0 THEN 'reply' END,
               1, at - interval '1 hour', at
        FROM g`.execute(db),
    ),
  );
  await sql`INSERT INTO ticket_counters (company_id, last_number) VALUES (${company}::uuid, ${total})`.execute(db);
  // The bulk load wrote about a gigabyte of WAL and dirty pages: a checkpoint now, not one spread over the next minutes
  // of measurements (checkpoint_completion_target). The tables were vacuumed and analysed after their load
  // (loadWithIndexesRebuilt), as a running deployment's are by autovacuum: hint bits and the visibility map are set.
  await sql`CHECKPOINT`.execute(db);
  const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM tickets WHERE company_id = ${company}::uuid AND status <> 'closed'`.execute(db);
  return Number(rows[0]!.n);
}

/**
 * The EXPLAIN (ANALYZE, BUFFERS) of the ticket repository's own list statement (captured through Kysely's log) with the
 * route's defaults, for the first page and for the page after the ticket `afterId`.
 */
async function listPlans(url: string, companyId: string, afterId: string) {
  const captured: { sql: string; parameters: readonly unknown[] }[] = [];
  const pool = new pg.Pool({ connectionString: url, max: 1, application_name: 'carteiro-bench-tickets-plans' });
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      if (event.level === 'query' && /from "tickets"/i.test(event.query.sql)) captured.push({ sql: event.query.sql, parameters: event.query.parameters });
    },
  });
  try {
    const { rows } = await sql<{ at: Date }>`SELECT last_activity_at AS at FROM tickets WHERE id = ${afterId}::uuid`.execute(db);
    const filter = { statuses: ['open', 'pending', 'snoozed'] as const };
    const tickets = kyselyRepositories(db).tickets;
    // As the route asks: with the page's contacts and setores (withViewParts), read in the same statement.
    await tickets.list(companyId, filter, { sort: 'last_activity_desc', after: null, limit: 25, withViewParts: true });
    await tickets.list(companyId, filter, { sort: 'last_activity_desc', after: { at: rows[0]!.at, id: afterId }, limit: 25, withViewParts: true });
    const explain = async (q: { sql: string; parameters: readonly unknown[] }) => {
      const result = await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${q.sql}`, [...q.parameters]);
      const plan = result.rows.map((r) => r['QUERY PLAN']).join('\n');
      return { plan, ms: Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? NaN) };
    };
    if (captured.length < 2) throw new Error(`captured ${captured.length} list statements`);
    return { first: await explain(captured[0]!), deep: await explain(captured[1]!) };
  } finally {
    await db.destroy();
  }
}

/** 50 (BENCH_INBOUND_RULES) enabled rules of every kind and both scopes, some case-sensitive, a few limited to the box. */
async function createRules(baseUrl: string, tenant: Tenant, count: number): Promise<void> {
  const kinds = ['contains', 'contains', 'contains', 'starts_with', 'equals', 'regex'] as const;
  for (let i = 0; i < count; i += 1) {
    const tag = await call<{ id: string }>(baseUrl, 'POST', '/v1/tags', tenant.key, { name: `Regra ${i}` });
    const word = WORDS[i % WORDS.length]!;
    const matchType = kinds[i % kinds.length]!;
    await call(baseUrl, 'POST', '/v1/tag-rules', tenant.key, {
      tag_id: tag.id,
      match_type: matchType,
      match_value: matchType === 'regex' ? `\\b${word.slice(0, 4)}\\w*\\s+(n[uú]mero|${i})\\b` : i >= WORDS.length ? `${word} ${i}` : word,
      case_sensitive: i % 10 === 0,
      scope: i % 2 === 0 ? 'contact' : 'conversation',
      setor_ids: i % 4 === 0 ? [tenant.setorIds[0]] : [],
    });
  }
}

/**
 * `messages` inbound messages through the simulator route with `connections` in flight: every fifth comes from a number
 * that wrote before (it joins that contact's active ticket), the others from new numbers. Numbers are drawn from `base`.
 */
async function inbound(baseUrl: string, servicePid: number, setorId: string, base: number, messages: number, connections: number) {
  let sent = 0;
  const distinct = new Set<number>();
  const texts = Array.from({ length: 64 }, (_, i) => {
    const parts = Array.from({ length: 2 + (i % 9) }, (_, j) => ((i + j) % 3 === 0 ? WORDS[(i * 7 + j) % WORDS.length]! : FIRST[(i + j) % FIRST.length]!));
    return `Olá, ${parts.join(' ')} número ${i}?`;
  });
  const before = cpuTimes();
  const generatorBefore = process.cpuUsage();
  const result = await autocannon({
    url: baseUrl,
    connections,
    amount: messages,
    // autocannon notices the last answer at its next sample (every `sampleInt` ms, 1 s by default), so its duration
    // was rounded up to whole seconds: 5,000 messages in 10.1 s read 455/s (5,000 / 11). At 20 ms it is within 1 %.
    sampleInt: 20,
    pipelining: 1,
    requests: [
      {
        method: 'POST',
        path: '/admin/v1/simulator/inbound',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        setupRequest: (request) => {
          const i = sent;
          sent += 1;
          // a repeat: a number from a little earlier (its first message has been answered by now, mostly)
          const n = i % 5 === 4 && i >= 50 ? base + (i - 40) - ((i - 40) % 5) : base + i;
          distinct.add(n);
          request.body = JSON.stringify({ setor_id: setorId, from: `+55219${80_000_000 + n}`, text: texts[i % texts.length], name: `Contato ${n}` });
          return request;
        },
      },
    ],
  });
  if (result.errors > 0 || result.non2xx > 0 || result.timeouts > 0) {
    throw new Error(`inbound: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  const after = cpuTimes();
  const generator = process.cpuUsage(generatorBefore);
  // The load generator (autocannon, in this process) runs on the same 2 cores: its share is not the service's cost,
  // but it is CPU the service and PostgreSQL cannot use.
  const generatorCpuMsPerMessage = round((generator.user + generator.system) / 1000 / Math.max(1, result['2xx']), 2);
  const cpuMsPerMessage = round((serverCpuSeconds(before, after, servicePid) * 1000) / Math.max(1, result['2xx']), 2);
  // The service's own share (the rest is PostgreSQL's).
  const serviceCpuMsPerMessage = round((((after.get(servicePid)?.seconds ?? 0) - (before.get(servicePid)?.seconds ?? 0)) * 1000) / Math.max(1, result['2xx']), 2);
  return { result, distinct: distinct.size, perSecond: Math.round(result['2xx'] / result.duration), cpuMsPerMessage, serviceCpuMsPerMessage, generatorCpuMsPerMessage };
}

export async function runTicketsBench(log: (line: string) => void = console.log, build: ServerBuild = 'dist'): Promise<TicketsBenchResult> {
  const total = env('BENCH_TICKETS', 1_000_000);
  const contacts = env('BENCH_TICKET_CONTACTS', 200_000);
  const deepTarget = env('BENCH_TICKETS_DEEP', 10_000);
  const rate = env('BENCH_TICKETS_RATE', 200);
  const seconds = env('BENCH_TICKETS_SECONDS', 10);
  const rounds = env('BENCH_TICKETS_ROUNDS', 2);
  const warmupSeconds = env('BENCH_TICKETS_WARMUP_SECONDS', 2);
  const messages = env('BENCH_INBOUND', 5_000);
  const connections = env('BENCH_INBOUND_CONNECTIONS', 16);
  const ruleCount = env('BENCH_INBOUND_RULES', 50);

  const database = await startBenchDatabase('tickets');
  let service: ChildServer | null = null;
  try {
    service = await startService('tickets-api', build, { ROLE: 'api', DATABASE_URL: database.url, ADMIN_TOKEN, NODE_ENV: 'production' });
    const base = service.baseUrl;
    const tenant = await createTenant(base, database.db, 1);

    // 1. The list.
    const seedStarted = performance.now();
    const activeTickets = await seed(database, tenant, total, contacts);
    const seedSeconds = round((performance.now() - seedStarted) / 1000, 1);
    log(`seeded ${total.toLocaleString('en-US')} tickets (${activeTickets.toLocaleString('en-US')} active) and ${contacts.toLocaleString('en-US')} contacts in ${seedSeconds} s`);

    const first = await call<{ items: { id: string }[]; next_cursor: string | null; has_more: boolean }>(base, 'GET', '/v1/tickets', tenant.key);
    if (first.items.length !== Math.min(25, activeTickets)) throw new Error(`the first page holds ${first.items.length} tickets`);
    // The deep page: the list's own cursors followed, 100 rows a page, past BENCH_TICKETS_DEEP rows.
    let cursor: string | null = null;
    let deepRows = 0;
    const seen = new Set<string>();
    let lastId = '';
    // At most half the active tickets deep, so that a reduced seed (BENCH_TICKETS) still leaves a page after it.
    while (deepRows < Math.min(deepTarget, Math.floor(activeTickets / 2))) {
      const route: string = `/v1/tickets?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page: { items: { id: string }[]; next_cursor: string | null } = await call(base, 'GET', route, tenant.key);
      for (const item of page.items) seen.add(item.id);
      lastId = page.items.at(-1)?.id ?? lastId;
      deepRows += page.items.length;
      cursor = page.next_cursor;
      if (!cursor) break;
    }
    if (seen.size !== deepRows) throw new Error(`following the cursors repeated ${deepRows - seen.size} tickets`);
    if (!cursor) throw new Error(`the list ended after ${deepRows} rows`);
    const deep = await call<{ items: { id: string }[] }>(base, 'GET', `/v1/tickets?cursor=${encodeURIComponent(cursor)}`, tenant.key);
    if (deep.items.length === 0 || deep.items.some((t) => seen.has(t.id))) throw new Error('the deep page is empty or repeats earlier tickets');
    log(`deep page: after ${deepRows.toLocaleString('en-US')} rows`);
    const plans = await listPlans(database.url, tenant.companyId, lastId);
    log(`list query alone (EXPLAIN ANALYZE): first page ${plans.first.ms} ms, deep page ${plans.deep.ms} ms`);
    if (process.env.BENCH_TICKETS_PLANS === '1') log(`first page:\n${plans.first.plan}\ndeep page:\n${plans.deep.plan}`);

    const urls = {
      me: `${base}/v1/me`,
      firstPage: `${base}/v1/tickets`,
      deepPage: `${base}/v1/tickets?cursor=${encodeURIComponent(cursor)}`,
    };
    log(`warm-up: ${warmupSeconds} s each at ${rate} req/s`);
    for (const url of Object.values(urls)) await atRate(url, tenant.key, rate, warmupSeconds, 1);
    const runs: Record<keyof typeof urls, PacedLoadResult[]> = { me: [], firstPage: [], deepPage: [] };
    const cpu: Record<keyof typeof urls, number> = { me: 0, firstPage: 0, deepPage: 0 };
    const serviceCpu: Record<keyof typeof urls, number> = { me: 0, firstPage: 0, deepPage: 0 };
    const pid = service.pid;
    for (let r = 0; r < rounds; r += 1) {
      // Alternating: the baseline and both pages see the same background load of a shared machine.
      for (const name of Object.keys(urls) as (keyof typeof urls)[]) {
        const before = cpuTimes();
        // The same arrivals for the three in a round (one seed a round).
        runs[name].push(await atRate(urls[name], tenant.key, rate, seconds, 100 + r));
        const after = cpuTimes();
        cpu[name] += serverCpuSeconds(before, after, pid);
        serviceCpu[name] += (after.get(pid)?.seconds ?? 0) - (before.get(pid)?.seconds ?? 0);
      }
      const p99 = (name: keyof typeof urls) => round(sortedPercentile(runs[name].at(-1)!.latencies, 99), 1);
      log(`round ${r + 1}: p99 /v1/me ${p99('me')} ms, first page ${p99('firstPage')} ms, deep page ${p99('deepPage')} ms`);
    }
    const me = combine(runs.me, cpu.me, serviceCpu.me);
    const firstPage = combine(runs.firstPage, cpu.firstPage, serviceCpu.firstPage);
    const deepPage = combine(runs.deepPage, cpu.deepPage, serviceCpu.deepPage);
    for (const [label, f] of [['GET /v1/me', me], ['GET /v1/tickets first page', firstPage], ['GET /v1/tickets deep page', deepPage]] as const) {
      log(`${label} at ${rate}/s: ${f.perSecond} req/s served, median ${f.medianMs} ms, p99 ${f.p99Ms} ms; CPU (service + PostgreSQL) ${f.cpuMsPerRequest} ms a request (service ${f.serviceCpuMsPerRequest} ms); ${f.bodyBytes} bytes; generator lag p99 ${f.generatorLagP99Ms} ms`);
    }
    const list = { tickets: total, contacts, activeTickets, seedSeconds, rate, seconds, rounds, deepRows, planMs: { first: plans.first.ms, deep: plans.deep.ms }, me, firstPage, deepPage };
    if (messages === 0) {
      log('inbound: skipped (BENCH_INBOUND=0)');
      return { ...list, inbound: null };
    }

    // 2. Inbound: one company without rules, one with them (two fresh tenants of the same service and database).
    const plain = await createTenant(base, database.db, 1);
    const ruled = await createTenant(base, database.db, 1);
    await createRules(base, ruled, ruleCount);
    log(`inbound: ${messages} messages per run, ${connections} in flight, ${ruleCount} rules in the second company`);
    const warm = Math.min(200, messages);
    const warmPlain = await inbound(base, service.pid, plain.setorIds[0]!, 0, warm, connections);
    const warmRuled = await inbound(base, service.pid, ruled.setorIds[0]!, 0, warm, connections);
    const without = await inbound(base, service.pid, plain.setorIds[0]!, 1_000_000, messages, connections);
    const withRules = await inbound(base, service.pid, ruled.setorIds[0]!, 1_000_000, messages, connections);
    // Shape: every message stored once, one active ticket per number, the rules did tag.
    const counts = async (companyId: string) => {
      const { rows } = await sql<{ messages: string; tickets: string; contacts: string; tagged: string }>`
        SELECT (SELECT count(*) FROM messages WHERE company_id = ${companyId}::uuid AND direction = 'inbound') AS messages,
               (SELECT count(*) FROM tickets WHERE company_id = ${companyId}::uuid AND status <> 'closed') AS tickets,
               (SELECT count(*) FROM contacts WHERE company_id = ${companyId}::uuid) AS contacts,
               (SELECT count(*) FROM ticket_tags WHERE company_id = ${companyId}::uuid)
                 + (SELECT count(*) FROM contact_tags ct JOIN contacts c ON c.id = ct.contact_id WHERE c.company_id = ${companyId}::uuid) AS tagged`.execute(database.db);
      return { messages: Number(rows[0]!.messages), tickets: Number(rows[0]!.tickets), contacts: Number(rows[0]!.contacts), tagged: Number(rows[0]!.tagged) };
    };
    for (const [label, tenantOf, warmRun, run] of [
      ['without rules', plain, warmPlain, without],
      ['with rules', ruled, warmRuled, withRules],
    ] as const) {
      const c = await counts(tenantOf.companyId);
      const numbers = warmRun.distinct + run.distinct;
      if (c.messages !== warm + messages) throw new Error(`inbound ${label}: ${c.messages} messages stored for ${warm + messages} sent`);
      if (c.contacts !== numbers || c.tickets !== numbers) throw new Error(`inbound ${label}: ${c.contacts} contacts and ${c.tickets} active tickets for ${numbers} numbers`);
    }
    const tagged = (await counts(ruled.companyId)).tagged;
    if (ruleCount > 0 && tagged === 0) throw new Error('inbound with rules: nothing was tagged');
    log(`inbound without rules: ${without.perSecond} messages/s (p99 ${without.result.latency.p99} ms, CPU ${without.cpuMsPerMessage} ms a message, the service's ${without.serviceCpuMsPerMessage} ms, the generator's ${without.generatorCpuMsPerMessage} ms); with ${ruleCount} rules: ${withRules.perSecond} messages/s (p99 ${withRules.result.latency.p99} ms, CPU ${withRules.cpuMsPerMessage} ms a message, the service's ${withRules.serviceCpuMsPerMessage} ms, the generator's ${withRules.generatorCpuMsPerMessage} ms), ${tagged} tags put`);

    return {
      ...list,
      inbound: {
        messages,
        distinct: withRules.distinct,
        connections,
        rules: ruleCount,
        withRules: { perSecond: withRules.perSecond, medianMs: withRules.result.latency.p50, p99Ms: withRules.result.latency.p99, cpuMsPerMessage: withRules.cpuMsPerMessage, tagged },
        withoutRules: { perSecond: without.perSecond, medianMs: without.result.latency.p50, p99Ms: without.result.latency.p99, cpuMsPerMessage: without.cpuMsPerMessage },
      },
    };
  } finally {
    await service?.stop();
    await database.stop();
  }
}

type Row = { figure: string; result: string; baseline: string; target: string; ok: boolean | null };

/** The summary rows of docs/benchmarks.md for this benchmark. */
export function ticketsRows(r: TicketsBenchResult | undefined): Row[] {
  if (!r) return [];
  const n = (v: number) => v.toLocaleString('en-US');
  const baseline = `GET /v1/me at the same rate: p99 ${r.me.p99Ms} ms`;
  const rows: Row[] = [
    {
      figure: `GET /v1/tickets first page, ${n(r.tickets)} tickets / ${n(r.contacts)} contacts, ${r.rate} req/s (median / p99)`,
      result: `${r.firstPage.medianMs} ms / ${r.firstPage.p99Ms} ms`,
      baseline,
      target: `p99 < ${TICKETS_TARGETS.listP99Ms} ms`,
      ok: r.firstPage.p99Ms < TICKETS_TARGETS.listP99Ms,
    },
    {
      figure: `GET /v1/tickets deep cursor page (after ${n(r.deepRows)} rows), ${r.rate} req/s (median / p99)`,
      result: `${r.deepPage.medianMs} ms / ${r.deepPage.p99Ms} ms`,
      baseline,
      target: `p99 < ${TICKETS_TARGETS.listP99Ms} ms`,
      ok: r.deepPage.p99Ms < TICKETS_TARGETS.listP99Ms,
    },
  ];
  if (!r.inbound) return rows;
  return [
    ...rows,
    {
      figure: `Inbound handling, POST /admin/v1/simulator/inbound, ${r.inbound.rules} enabled tag rules, ${r.inbound.connections} in flight`,
      result: `${n(r.inbound.withRules.perSecond)} messages/s`,
      baseline: `no rules: ${n(r.inbound.withoutRules.perSecond)} messages/s`,
      target: `≥ ${n(TICKETS_TARGETS.inboundPerSecond)} messages/s`,
      ok: r.inbound.withRules.perSecond >= TICKETS_TARGETS.inboundPerSecond,
    },
  ];
}

/** The section of docs/benchmarks.md for this benchmark. */
export function ticketsSection(r: TicketsBenchResult | undefined, error?: string): string[] {
  const L = ['## Tickets', ''];
  L.push(
    '`bench/tickets.bench.ts` (`runTicketsBench()`; env `BENCH_TICKETS` 1000000, `BENCH_TICKET_CONTACTS` 200000, `BENCH_TICKETS_DEEP` 10000,',
    '`BENCH_TICKETS_RATE` 200, `BENCH_TICKETS_SECONDS` 10, `BENCH_TICKETS_ROUNDS` 2, `BENCH_TICKETS_WARMUP_SECONDS` 2, `BENCH_INBOUND` 5000,',
    '`BENCH_INBOUND_CONNECTIONS` 16, `BENCH_INBOUND_RULES` 50). One embedded PostgreSQL; the real service (`ROLE=api`) in a child process, loaded by the paced generator below (list) and by autocannon (inbound).',
    '',
    '- **List**: one company with the tickets and contacts seeded by `generate_series` into `contacts`, `conversations` and',
    "  `tickets` (a conversation per contact; a contact's last ticket active for half the contacts — open, pending or",
    '  snoozed —, every other one closed; activity spread over about a year; indexes rebuilt, then `VACUUM (ANALYZE)` and a',
    "  `CHECKPOINT`, as a deployment that has been running is: analysed, hint bits set, no bulk load's checkpoint pending).",
    '  `GET /v1/tickets` with its defaults (open, pending and snoozed, `last_activity_desc`, 25 a page, contacts and reply',
    '  windows included), the first page and a deep page whose cursor was reached by following the list\'s own cursors',
    '  (100 a page). An open load at the rate (`bench/support/paced-load.ts`): Poisson arrivals (seeded: the same in',
    '  every run), each request on a free keep-alive socket as it is due, timed from its start to the end of the answer;',
    "  the generator's own timer lateness is reported apart and not counted (a request waiting for a socket is: that",
    "  wait is the service's). Not autocannon's `overallRate`, which resets each connection's quota every second, so",
    '  that its 10 connections sent 20 requests each back to back at the start of each second: a burst of 10 concurrent',
    "  clients, not 200 req/s (the figures of runs before this change were measured so). Warm-up 2 s each; the baseline",
    '  `GET /v1/me` (the same key check and rate-limit write, no list) at the same rate and arrivals alternates with both',
    "  pages; the worst round's percentiles are kept.",
    '- **Inbound**: `POST /admin/v1/simulator/inbound` as fast as the service answers with 16 requests in flight: four in',
    '  five from new numbers (a contact, conversation and ticket created), one in five from a number that wrote a little',
    '  earlier (it joins its active ticket), texts of 3-10 words. Once in a company with 50 enabled tag rules (contains,',
    '  starts_with, equals and regex; contact and conversation scopes), once in a company without rules (the baseline).',
    '  The run fails unless every message was stored once and each number has one active ticket.',
    '- **Baselines**: `GET /v1/me` (the list figures), the company without rules (the inbound figure); both in the same run.',
    '',
  );
  if (!r) return [...L, `Did not run: ${error ?? 'skipped'}`, ''];
  L.push('| Figure | Result |', '|---|---|');
  L.push(`| seed | ${r.tickets.toLocaleString('en-US')} tickets (${r.activeTickets.toLocaleString('en-US')} active), ${r.contacts.toLocaleString('en-US')} contacts in ${r.seedSeconds} s |`);
  for (const [label, f] of [
    ['GET /v1/me (baseline)', r.me],
    ['GET /v1/tickets, first page', r.firstPage],
    [`GET /v1/tickets, page after ${r.deepRows.toLocaleString('en-US')} rows`, r.deepPage],
  ] as const) {
    L.push(`| ${label} at ${r.rate} req/s: median / p99 / max | ${f.medianMs} ms / ${f.p99Ms} ms / ${f.maxMs} ms (${f.requests.toLocaleString('en-US')} requests, ${f.perSecond} req/s served; CPU ${f.cpuMsPerRequest} ms a request, the service's ${f.serviceCpuMsPerRequest} ms; ${f.bodyBytes.toLocaleString('en-US')} bytes an answer; generator lag p99 ${f.generatorLagP99Ms} ms) |`);
  }
  L.push(`| the list statement alone (EXPLAIN ANALYZE): first page / deep page | ${r.planMs.first} ms / ${r.planMs.deep} ms |`);
  if (r.inbound) L.push(`| inbound without rules | ${r.inbound.withoutRules.perSecond.toLocaleString('en-US')} messages/s, median ${r.inbound.withoutRules.medianMs} ms, p99 ${r.inbound.withoutRules.p99Ms} ms; CPU ${r.inbound.withoutRules.cpuMsPerMessage} ms a message |`);
  if (r.inbound) L.push(`| inbound with ${r.inbound.rules} rules | ${r.inbound.withRules.perSecond.toLocaleString('en-US')} messages/s, median ${r.inbound.withRules.medianMs} ms, p99 ${r.inbound.withRules.p99Ms} ms; CPU ${r.inbound.withRules.cpuMsPerMessage} ms a message (${r.inbound.withRules.tagged.toLocaleString('en-US')} tags put) |`);
  L.push('', 'CPU is that of the service process and of PostgreSQL (from /proc), per request: it does not grow with other users of the machine.');
  L.push('');
  return L;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const result = await runTicketsBench(console.log, (process.env.BENCH_SERVER as ServerBuild | undefined) ?? 'dist');
  console.log(JSON.stringify(result, null, 2));
}
