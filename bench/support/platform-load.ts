// The platform load: many companies, each with connected numbers on the simulator and a running
// campaign, and what is measured of it (each number's lateness at the simulator, who sent what, a
// quiet neighbour's latency).
import { performance } from 'node:perf_hooks';
import { sql, type Kysely } from 'kysely';
import type { Database } from '@carteiro/postgres';
import { percentile, round } from './measure.js';
import { createTenant, phoneOf } from './tenant.js';

export interface PlatformCompany {
  companyId: string;
  setorIds: string[];
  /** A live key with every scope (the companies are unlimited: no credits). */
  key: string;
}

/** Runs `work` over `items` with at most `width` in flight. */
export async function inParallel<T, R>(items: readonly T[], width: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      for (let i = next++; i < items.length; i = next++) out[i] = await work(items[i]!, i);
    }),
  );
  return out;
}

/**
 * A company with no limit in the way (unlimited plan, rates and daily limit far above the load, every
 * hour safe) and `numbers` setores connected on the simulator (warming's daily limit lifted; a new
 * number keeps warming's 30 s floor between sends, times PACING_SCALE).
 */
export function createPlatformCompany(baseUrl: string, db: Kysely<Database>, name: string, numbers: number): Promise<PlatformCompany> {
  return createTenant(baseUrl, db, numbers, { name, mode: 'live' });
}

/** POST /v1/campaigns over every number of the company (interleaved), `normal` level; returns its id. */
export async function startCampaign(baseUrl: string, company: PlatformCompany, recipients: number, offset: number): Promise<string> {
  const res = await fetch(`${baseUrl}/v1/campaigns`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${company.key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      name: 'Platform',
      setor_ids: company.setorIds,
      recipients: Array.from({ length: recipients }, (_, i) => ({ phone: phoneOf(offset + i) })),
      message: { text: 'Olá {{nome}}' },
      options: { anti_ban_level: 'normal' },
    }),
  });
  const text = await res.text();
  if (res.status !== 202) throw new Error(`POST /v1/campaigns answered ${res.status}: ${text.slice(0, 300)}`);
  return (JSON.parse(text) as { data: { id: string } }).data.id;
}

export interface LatenessFigures {
  /** Gaps measured (consecutive sends of one number, both inside the window). */
  gaps: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Gaps shorter than the pacing floor (must be 0). */
  belowFloor: number;
  /** Sends at the simulator inside the window, per second. */
  sendsPerSecond: number;
  /** Numbers that sent inside the window. */
  numbers: number;
}


/**
 * Lateness of every number in a window, from the simulator outbox: the gap between two consecutive
 * sends of a number minus the planned gap (`plannedMs`: with warming's floor above the level's draw,
 * every planned gap is the floor).
 */
export async function measureLateness(db: Kysely<Database>, companyIds: readonly string[], from: Date, to: Date, plannedMs: number): Promise<LatenessFigures> {
  const { rows } = await sql<{ gap_ms: number | null; setor_id: string }>`
    SELECT setor_id, EXTRACT(EPOCH FROM (sent_at - lag(sent_at) OVER (PARTITION BY setor_id ORDER BY sent_at, seq))) * 1000 AS gap_ms
    FROM simulator_messages
    WHERE company_id = ANY(${companyIds as string[]}::uuid[]) AND sent_at >= ${from} AND sent_at < ${to}`.execute(db);
  const lateness: number[] = [];
  let belowFloor = 0;
  const numbers = new Set<string>();
  for (const row of rows) {
    numbers.add(row.setor_id);
    if (row.gap_ms === null) continue;
    const gap = Number(row.gap_ms);
    if (gap < plannedMs - 0.5) belowFloor += 1;
    lateness.push(gap - plannedMs);
  }
  lateness.sort((a, b) => a - b);
  return {
    gaps: lateness.length,
    p50Ms: round(percentile(lateness, 50)),
    p95Ms: round(percentile(lateness, 95)),
    p99Ms: round(percentile(lateness, 99)),
    maxMs: round(lateness[lateness.length - 1] ?? NaN),
    belowFloor,
    sendsPerSecond: Math.round(rows.length / ((to.getTime() - from.getTime()) / 1000)),
    numbers: numbers.size,
  };
}

export interface NeighbourFigures {
  sends: number;
  sendP50Ms: number;
  sendP99Ms: number;
  reads: number;
  readP50Ms: number;
  readP99Ms: number;
  errors: number;
}

/**
 * A company with nothing queued: one `POST /v1/messages` and one `GET /v1/campaigns` every
 * `intervalMs` (sequential, as a small customer's integration), until `signal` aborts.
 */
export async function quietNeighbour(baseUrl: string, company: PlatformCompany, intervalMs: number, signal: AbortSignal, offset: number): Promise<NeighbourFigures> {
  const sends: number[] = [];
  const reads: number[] = [];
  let errors = 0;
  const auth = { Authorization: `Bearer ${company.key}` };
  for (let i = 0; !signal.aborted; i += 1) {
    const started = performance.now();
    const sent = await fetch(`${baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ phone: phoneOf(offset + i), setor_id: company.setorIds[0], message: { text: 'Olá, tudo bem?' } }),
    }).then(async (res) => ({ ok: res.status === 201, text: await res.text() }));
    const afterSend = performance.now();
    if (sent.ok) sends.push(afterSend - started);
    else errors += 1;
    const read = await fetch(`${baseUrl}/v1/campaigns?limit=20`, { headers: auth }).then(async (res) => ({ ok: res.ok, text: await res.text() }));
    const afterRead = performance.now();
    if (read.ok) reads.push(afterRead - afterSend);
    else errors += 1;
    const wait = intervalMs - (afterRead - started);
    if (wait > 0 && !signal.aborted) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  sends.sort((a, b) => a - b);
  reads.sort((a, b) => a - b);
  return {
    sends: sends.length,
    sendP50Ms: round(percentile(sends, 50)),
    sendP99Ms: round(percentile(sends, 99)),
    reads: reads.length,
    readP50Ms: round(percentile(reads, 50)),
    readP99Ms: round(percentile(reads, 99)),
    errors,
  };
}
