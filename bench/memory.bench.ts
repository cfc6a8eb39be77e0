// Memory benchmark: resident set size of the service process (apps/server main, ROLE=all: API and
// worker in one process) sampled while it runs a 10,000-recipient campaign with PACING_SCALE=0
// through the simulator, on an embedded PostgreSQL.
// Run alone: node --import ./scripts/ts-loader/register.mjs bench/memory.bench.ts
// Env: BENCH_MEMORY_RECIPIENTS (default 10000), BENCH_MEMORY_BOXES (numbers, default 10),
//      BENCH_SERVER=dist|source, BENCH_DATABASE_URL.
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { rssOf, startService, type ChildServer, type ServerBuild } from './support/processes.js';
import { ADMIN_TOKEN, createCampaign, createTenant, startBenchDatabase } from './support/tenant.js';
import { env } from './support/measure.js';

export interface MemoryBenchResult {
  recipients: number;
  boxes: number;
  /** RSS once started and idle, before the campaign (MB = 2^20 bytes). */
  idleMb: number;
  peakMb: number;
  medianMb: number;
  samples: number;
  sampleIntervalMs: number;
  /** From the POST to the campaign `concluido`. */
  seconds: number;
  /** Recipients the campaign recorded as sent (the simulator fails a few on purpose). */
  sent: number;
  /** Sends the simulator received, retries included. */
  attempts: number;
}

const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

export async function runMemoryBench(log: (line: string) => void = console.log, build: ServerBuild = 'dist'): Promise<MemoryBenchResult> {
  const recipients = env('BENCH_MEMORY_RECIPIENTS', 10_000);
  const boxes = env('BENCH_MEMORY_BOXES', 10);
  const intervalMs = 100;
  const database = await startBenchDatabase('memory');
  let service: ChildServer | null = null;
  try {
    service = await startService('memory-all', build, {
      ROLE: 'all',
      DATABASE_URL: database.url,
      ADMIN_TOKEN,
      PACING_SCALE: '0',
      NODE_ENV: 'production',
    });
    const tenant = await createTenant(service.baseUrl, database.db, boxes);
    const pid = service.pid;
    const idle = rssOf(pid);
    if (idle === null) throw new Error('service process gone before the campaign');

    const samples: number[] = [];
    const sampler = setInterval(() => {
      const rss = rssOf(pid);
      if (rss !== null) samples.push(rss);
    }, intervalMs);
    const started = performance.now();
    let status = '';
    let sent = 0;
    try {
      const id = await createCampaign(service.baseUrl, tenant.key, recipients);
      const deadline = Date.now() + 300_000;
      while (status !== 'concluido') {
        if (Date.now() > deadline) throw new Error(`campaign not concluded in 300 s (status ${status}, sent ${sent})`);
        await new Promise((resolve) => setTimeout(resolve, 250));
        const res = await fetch(`${service.baseUrl}/v1/campaigns/${id}`, { headers: { Authorization: `Bearer ${tenant.key}` } });
        if (res.status !== 200) throw new Error(`GET /v1/campaigns/:id answered ${res.status}: ${await res.text()}`);
        const data = ((await res.json()) as { data: { status: string; total_enviados: number } }).data;
        status = data.status;
        sent = data.total_enviados;
      }
    } finally {
      clearInterval(sampler);
    }
    const seconds = (performance.now() - started) / 1000;
    // The simulator fails some test-mode sends on purpose (blocked, not on WhatsApp, temporary errors
    // that the engine retries): every recipient must have reached it, and the campaign must be over.
    const { rows } = await sql<{ phones: number; attempts: number }>`
      SELECT count(DISTINCT to_digits)::int AS phones, count(*)::int AS attempts
      FROM simulator_messages WHERE company_id = ${tenant.companyId}`.execute(database.db);
    const outbox = rows[0]!;
    if (outbox.phones !== recipients) throw new Error(`the simulator saw ${outbox.phones} recipients, expected ${recipients}`);
    const sorted = [...samples].sort((a, b) => a - b);
    const result: MemoryBenchResult = {
      recipients,
      boxes,
      idleMb: mb(idle),
      peakMb: mb(sorted.at(-1) ?? NaN),
      medianMb: mb(sorted[Math.floor(sorted.length / 2)] ?? NaN),
      samples: samples.length,
      sampleIntervalMs: intervalMs,
      seconds: Number(seconds.toFixed(1)),
      sent,
      attempts: outbox.attempts,
    };
    log(`RSS of the ROLE=all process during a ${recipients}-recipient campaign (${result.seconds} s, ${samples.length} samples): idle ${result.idleMb} MB, median ${result.medianMb} MB, peak ${result.peakMb} MB`);
    return result;
  } finally {
    await service?.stop();
    await database.stop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  await runMemoryBench(console.log, (process.env.BENCH_SERVER as ServerBuild | undefined) ?? 'dist');
}
