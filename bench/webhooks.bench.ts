// Webhook delivery benchmark: throughput and event-to-delivery latency to a local receiver, on
// an embedded PostgreSQL (or BENCH_DATABASE_URL). Run:
//   node --import ./scripts/ts-loader/register.mjs bench/webhooks.bench.ts
// Env: BENCH_EVENTS (throughput backlog, default 10000), BENCH_LATENCY_EVENTS (default 1000),
// BENCH_LATENCY_RATE (events per second while measuring latency, default 200), BENCH_CONCURRENCY (64).
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { CreateWebhook, DeliverWebhooks, FanOutEvents, createCompany, retryPolicy, type DomainEvent } from '@carteiro/core';
import {
  KyselyUnitOfWork,
  PgNotificationListener,
  WEBHOOKS_NOTIFY_CHANNEL,
  createDb,
  ensureDatabase,
  migrateToLatest,
  startEmbeddedPostgres,
} from '@carteiro/postgres';
import { HttpWebhookSender, WebhookDispatcher, WebhookUrlSafety } from '@carteiro/webhooks';
import { env, percentile, until } from './support/measure.js';

export interface WebhooksBenchResult {
  machine: string;
  throughput: { deliveries: number; seconds: number; perSecond: number };
  latency: { events: number; rate: number; medianMs: number; p95Ms: number; p99Ms: number; maxMs: number };
}

export async function runWebhooksBench(log: (line: string) => void = console.log): Promise<WebhooksBenchResult> {
  const backlog = env('BENCH_EVENTS', 10_000);
  const latencyEvents = env('BENCH_LATENCY_EVENTS', 1000);
  const latencyRate = env('BENCH_LATENCY_RATE', 200);
  const concurrency = env('BENCH_CONCURRENCY', 64);

  let dataDir: string | null = null;
  let stopPg: (() => Promise<void>) | null = null;
  let url = process.env.BENCH_DATABASE_URL;
  if (!url) {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'carteiro-bench-'));
    const pg = await startEmbeddedPostgres({ dataDir, ephemeral: true });
    stopPg = pg.stop;
    await ensureDatabase(pg.adminUrl, 'bench_webhooks');
    url = pg.urlFor('bench_webhooks');
  } else {
    const name = `bench_webhooks_${randomUUID().slice(0, 8)}`;
    await ensureDatabase(url, name);
    const parsed = new URL(url);
    parsed.pathname = `/${name}`;
    url = parsed.toString();
  }
  const db = createDb(url, { poolSize: 12, applicationName: 'carteiro-bench' });
  await migrateToLatest(db);
  const uow = new KyselyUnitOfWork(db);
  const clock = { now: () => new Date() };
  const ids = { newId: () => randomUUID() };

  // The receiver: answers 200 at once and notes when each event arrived.
  const arrivals = new Map<string, number>();
  let received = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk));
    req.on('end', () => {
      received += 1;
      const seq = (JSON.parse(body) as { data: { seq?: string } }).data.seq;
      if (seq) arrivals.set(seq, performance.now());
      res.end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;

  const companyId = randomUUID();
  await uow.transaction((repos) => repos.companies.insert(createCompany(companyId, new Date(), { name: 'Bench' })));
  await new CreateWebhook(uow, ids, clock, { next: () => 0.5, bytes: (n: number) => new Uint8Array(randomBytes(n)) }, new WebhookUrlSafety({ allowPrivate: true })).execute(companyId, {
    url: receiverUrl,
    events: ['message.sent'],
  });
  const event = (data: Record<string, unknown>): DomainEvent => ({
    id: randomUUID(),
    event: 'message.sent',
    companyId,
    setorId: null,
    occurredAt: new Date(),
    data: { campaignId: 'bench', status: 'sent', ...data },
    actor: { user_id: null, source: 'system' },
  });

  const sender = new HttpWebhookSender({ allowPrivate: true, maxSocketsPerHost: concurrency });
  const dispatcher = new WebhookDispatcher(
    new FanOutEvents(uow, ids, clock),
    new DeliverWebhooks(uow, clock, sender, retryPolicy(30_000)),
    new PgNotificationListener(url, WEBHOOKS_NOTIFY_CHANNEL),
    { concurrency, pollIntervalMs: 1000 },
  );

  try {
    // 1. Throughput: a backlog of events (100 per transaction) committed while no worker runs.
    for (let i = 0; i < backlog; i += 100) {
      await uow.transaction((repos) => repos.events.record(Array.from({ length: Math.min(100, backlog - i) }, () => event({}))));
    }
    const started = performance.now();
    await dispatcher.start();
    await until(async () => {
      if (received < backlog) return false;
      const row = await db
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'succeeded')
        .executeTakeFirstOrThrow();
      return Number(row.n) >= backlog;
    }, 300_000);
    const seconds = (performance.now() - started) / 1000;
    const throughput = { deliveries: backlog, seconds: Number(seconds.toFixed(2)), perSecond: Math.round(backlog / seconds) };
    log(`throughput: ${backlog} deliveries (fan-out, HTTP POST, stored outcome) in ${throughput.seconds} s = ${throughput.perSecond}/s`);

    // 2. Latency: one event per transaction at a steady rate, from before its commit to its arrival.
    const sentAt = new Map<string, number>();
    const interval = 1000 / latencyRate;
    const t0 = performance.now();
    for (let i = 0; i < latencyEvents; i += 1) {
      const wait = t0 + i * interval - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const seq = `L${i}`;
      sentAt.set(seq, performance.now());
      void uow.transaction((repos) => repos.events.record([event({ seq })]));
    }
    await until(() => [...sentAt.keys()].every((seq) => arrivals.has(seq)), 60_000);
    const latencies = [...sentAt].map(([seq, at]) => arrivals.get(seq)! - at).sort((a, b) => a - b);
    const round = (n: number) => Number(n.toFixed(1));
    const latency = {
      events: latencyEvents,
      rate: latencyRate,
      medianMs: round(percentile(latencies, 50)),
      p95Ms: round(percentile(latencies, 95)),
      p99Ms: round(percentile(latencies, 99)),
      maxMs: round(latencies[latencies.length - 1] ?? NaN),
    };
    log(`latency (event committed -> received, ${latencyEvents} events at ${latencyRate}/s): median ${latency.medianMs} ms, p95 ${latency.p95Ms} ms, p99 ${latency.p99Ms} ms, max ${latency.maxMs} ms`);
    const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`;
    log(`machine: ${machine}`);
    return { machine, throughput, latency };
  } finally {
    await dispatcher.stop();
    sender.close();
    server.closeAllConnections();
    server.close();
    await db.destroy();
    await stopPg?.();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  await runWebhooksBench();
}
