// Scheduling benchmark, on one embedded PostgreSQL (or BENCH_DATABASE_URL), in one run:
//  1. a month's availability (31 dates, the whole company) for 20 professionals in 3 units (São Paulo, Manaus,
//     Noronha) with 5,000 existing appointments: GET /v1/appointments/availability through the real API;
//  2. 10,000 scheduled messages due in the same minute over 10 numbers, sent by the whole worker through the
//     simulator at PACING_SCALE (default 0.001): each exactly once, and each number's sends at least its gap apart.
// Run: node --import ./scripts/ts-loader/register.mjs bench/scheduling.bench.ts
// Env: BENCH_AVAILABILITY_RUNS (100), BENCH_TIMED (10000), BENCH_TIMED_BOXES (10), BENCH_TIMED_PACING (0.001).
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import { sql } from 'kysely';
import { createBoss } from '@carteiro/pgboss';
import { createDb, migrateToLatest } from '@carteiro/postgres';
import { loadConfig } from '@carteiro/system';
import { buildWorkerContainer, runWorker } from '@carteiro/worker';
import { startInProcessApi } from './support/in-process-api.js';
import { ADMIN_TOKEN, apiCall, createTenant, startBenchDatabase } from './support/tenant.js';
import { simulatorOverride } from '../apps/worker/src/campaigns/testing/simulator-override.js';
import { env, percentile, round, until } from './support/measure.js';
import { benchSection, type SummaryRow } from './support/report.js';

export interface SchedulingBenchResult {
  availability: { professionals: number; units: number; appointments: number; days: number; slots: number; runs: number; medianMs: number; p95Ms: number };
  timed: { messages: number; boxes: number; pacingScale: number; seconds: number; perSecond: number; minGapMs: number; expectedGapMs: number; duplicates: number };
}

const DAY = 86_400_000;

export async function runSchedulingBench(log: (line: string) => void = console.log): Promise<SchedulingBenchResult> {
  const runs = env('BENCH_AVAILABILITY_RUNS', 100);
  const timedMessages = env('BENCH_TIMED', 10_000);
  const boxes = env('BENCH_TIMED_BOXES', 10);
  const pacingScale = env('BENCH_TIMED_PACING', 0.001);

  const database = await startBenchDatabase('scheduling');
  const logger = pino({ level: 'silent' });
  const db = createDb(database.url, { poolSize: 20, applicationName: 'carteiro-bench-scheduling' });
  await migrateToLatest(db);
  const boss = createBoss(database.url, { worker: true });
  boss.on('error', () => undefined);
  await boss.start();
  const config = loadConfig({ ...process.env, PACING_SCALE: String(pacingScale), ADMIN_TOKEN, CAMPAIGN_LANE_SLICE_MS: '600000' });
  try {
    const { api, server, base } = await startInProcessApi({ config, db, boss, logger });
    const tenant = await createTenant(base, db, boxes);
    const call = <T>(method: string, path: string, body?: unknown, auth?: string) => apiCall<T>(base, method, path, body, auth);

    // 1. A month's availability: 3 units, 20 professionals (Monday-Friday 08:00-18:00 at one unit each), 5,000 appointments.
    const admin = `/admin/v1/companies/${tenant.companyId}`;
    const units: { id: string }[] = [];
    for (const [name, timezone, uf] of [['Paulista', 'America/Sao_Paulo', 'SP'], ['Centro', 'America/Manaus', 'AM'], ['Ilha', 'America/Noronha', 'PE']] as const) {
      units.push(await call('POST', `${admin}/units`, { name, timezone, address: { uf } }));
    }
    const type = await call<{ id: string }>('POST', `${admin}/appointment-types`, {
      name: 'Consulta',
      duration_minutes: 30,
      buffer_after_minutes: 10,
      slot_interval_minutes: 30,
      min_notice_minutes: 0,
      max_advance_days: 120,
      unit_ids: units.map((u) => u.id),
    });
    const professionals: string[] = [];
    for (let p = 0; p < 20; p += 1) {
      const unitId = units[p % 3]!.id;
      const schedule = [1, 2, 3, 4, 5].map((weekday) => ({ unit_id: unitId, weekday, start: '08:00', end: '18:00' }));
      professionals.push((await call<{ id: string }>('POST', `${admin}/professionals`, { name: `Profissional ${p}`, schedule, services: [{ appointment_type_id: type.id, unit_id: unitId }] })).id);
    }
    const first = new Date(Date.now() + 7 * DAY);
    const from = first.toISOString().slice(0, 10);
    const monthStart = Date.parse(`${from}T00:00:00.000Z`);
    const to = new Date(monthStart + 30 * DAY).toISOString().slice(0, 10);
    const appointments = 5_000;
    const perProfessional = appointments / professionals.length;
    // Seeded directly (the booking path is measured by the HTTP tests): 9 a day per professional, 40 minutes apart from 11:00Z.
    await sql`
      WITH a AS (
        SELECT gen_random_uuid() AS id, p.id AS professional_id, p.unit_id, g,
               ${new Date(monthStart)}::timestamptz + ((g / 9) || ' days')::interval + interval '11 hours' + ((g % 9) * 40 || ' minutes')::interval AS starts_at
        FROM unnest(${professionals}::uuid[], ${professionals.map((_, p) => units[p % 3]!.id)}::uuid[]) AS p(id, unit_id),
             generate_series(0, ${perProfessional - 1}::int) AS g
      ), ins AS (
        INSERT INTO appointments (id, company_id, appointment_type_id, professional_id, unit_id, client_id, client_name, client_phone, starts_at, ends_at,
                                  timezone, status, description, ticket_id, setor_id, key_mode, history, created_at, updated_at)
        SELECT id, ${tenant.companyId}::uuid, ${type.id}::uuid, professional_id, unit_id, gen_random_uuid(), NULL, '+5511999990000', starts_at,
               starts_at + interval '30 minutes', 'America/Sao_Paulo', 'scheduled', NULL, NULL, NULL, 'test', '[]', now(), now()
        FROM a RETURNING id, professional_id, starts_at
      )
      INSERT INTO scheduling_busy (id, company_id, professional_id, appointment_id, busy)
      SELECT gen_random_uuid(), ${tenant.companyId}::uuid, professional_id, id, tstzrange(starts_at, starts_at + interval '40 minutes', '[)') FROM ins`.execute(db);
    await sql`ANALYZE appointments; ANALYZE scheduling_busy`.execute(db);
    const path = `/v1/appointments/availability?appointment_type_id=${type.id}&from=${from}&to=${to}`;
    const key = `Bearer ${tenant.key}`;
    let slots = 0;
    for (let i = 0; i < 10; i += 1) slots = (await call<{ items: unknown[] }>('GET', path, undefined, key)).items.length;
    const samples: number[] = [];
    for (let i = 0; i < runs; i += 1) {
      const started = performance.now();
      await call('GET', path, undefined, key);
      samples.push(performance.now() - started);
    }
    samples.sort((a, b) => a - b);
    const availability = { professionals: 20, units: 3, appointments, days: 31, slots, runs, medianMs: round(percentile(samples, 50), 2), p95Ms: round(percentile(samples, 95), 2) };
    log(`availability of a month (${slots} slots, 20 professionals, 3 units, ${appointments} appointments): median ${availability.medianMs} ms, p95 ${availability.p95Ms} ms over ${runs} GETs`);

    // 2. 10,000 scheduled messages due in the same minute over 10 numbers.
    const setorIds = tenant.setorIds;
    const contactId = randomUUID();
    await sql`
      INSERT INTO scheduled_messages (id, company_id, kind, client_id, client_name, phone, setor_id, key_mode, content, send_at, effective_send_at,
                                      respect_safe_hours, status, attempts, created_at, updated_at)
      SELECT gen_random_uuid(), ${tenant.companyId}::uuid, 'message', ${contactId}::uuid, 'Pessoa ' || g, '+55119' || (70000000 + g * 10 + 6), (${setorIds}::uuid[])[1 + g % ${setorIds.length}],
             'live', jsonb_build_object('text', 'Oi {{primeiro_nome}}', 'mediaUrl', NULL, 'mediaType', NULL, 'mediaFilename', NULL),
             date_trunc('minute', now()), date_trunc('minute', now()), false, 'scheduled', 0, now(), now()
      FROM generate_series(0, ${timedMessages - 1}::int) AS g`.execute(db);
    const worker = buildWorkerContainer({ config, db, boss, logger, overrides: [simulatorOverride(db)] });
    const started = performance.now();
    const running = await runWorker(worker, boss);
    await until(async () => {
      const row = await db
        .selectFrom('scheduled_messages')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('company_id', '=', tenant.companyId)
        .where('status', 'in', ['scheduled', 'sending'])
        .executeTakeFirstOrThrow();
      return Number(row.n) === 0;
    }, 900_000);
    const seconds = (performance.now() - started) / 1000;
    await running.stop();
    server.close();
    const outbox = await sql<{ n: number; distinct_ids: number }>`
      SELECT count(*)::int AS n, count(DISTINCT client_message_id)::int AS distinct_ids FROM simulator_messages WHERE company_id = ${tenant.companyId}`.execute(db);
    const sent = await sql<{ n: number }>`SELECT count(*)::int AS n FROM scheduled_messages WHERE company_id = ${tenant.companyId} AND status = 'sent'`.execute(db);
    const gaps = await sql<{ min_gap_ms: number }>`
      SELECT min(gap) AS min_gap_ms FROM (
        SELECT extract(epoch FROM sent_at - lag(sent_at) OVER (PARTITION BY setor_id ORDER BY sent_at)) * 1000 AS gap
        FROM simulator_messages WHERE company_id = ${tenant.companyId}) g WHERE gap IS NOT NULL`.execute(db);
    const events = await sql<{ n: number }>`SELECT count(DISTINCT data->>'scheduledMessageId')::int AS n FROM domain_events WHERE company_id = ${tenant.companyId} AND event IN ('message.sent', 'message.failed')`.execute(db);
    const row = outbox.rows[0]!;
    // Live-mode rows: the simulator fails none on purpose, so every row must be sent, once.
    if (row.distinct_ids !== row.n || row.n !== timedMessages || sent.rows[0]!.n !== timedMessages || events.rows[0]!.n !== timedMessages) {
      throw new Error(`timed sends: ${row.n} outbox rows, ${row.distinct_ids} distinct ids, ${events.rows[0]!.n} settled events for ${timedMessages} messages`);
    }
    // A new number is in warming stage 1: 30 s between two sends, times PACING_SCALE.
    const expectedGapMs = 30_000 * pacingScale;
    const timed = {
      messages: timedMessages,
      boxes,
      pacingScale,
      seconds: round(seconds, 2),
      perSecond: Math.round(timedMessages / seconds),
      minGapMs: round(Number(gaps.rows[0]?.min_gap_ms ?? NaN), 1),
      expectedGapMs,
      duplicates: row.n - row.distinct_ids,
    };
    log(
      `timed sends: ${timedMessages} due in one minute over ${boxes} numbers at PACING_SCALE=${pacingScale}: ${timed.seconds} s (${timed.perSecond}/s), ` +
        `${sent.rows[0]!.n} sent, ${row.n} at the simulator, ${timed.duplicates} duplicates, smallest gap of a number ${timed.minGapMs} ms (pacing ${expectedGapMs} ms)`,
    );
    return { availability, timed };
  } finally {
    await boss.stop({ graceful: false, wait: true }).catch(() => undefined);
    await db.destroy();
    await database.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await runSchedulingBench();
  console.log(JSON.stringify(result, null, 2));
  process.exit(0);
}

/** Targets of the scheduling figures (issue 14). */
export const SCHEDULING_TARGETS = { availabilityP95Ms: 50 };

/** The summary rows of docs/benchmarks.md for this benchmark. */
export function schedulingRows(r: SchedulingBenchResult | undefined): SummaryRow[] {
  if (!r) return [];
  const a = r.availability;
  const t = r.timed;
  return [
    {
      figure: `A month's availability, ${a.professionals} professionals in ${a.units} units, ${a.appointments.toLocaleString('en-US')} appointments (median / p95 of ${a.runs} GETs)`,
      result: `${a.medianMs} ms / ${a.p95Ms} ms`,
      baseline: `${a.slots} slots`,
      target: `p95 < ${SCHEDULING_TARGETS.availabilityP95Ms} ms`,
      ok: a.p95Ms < SCHEDULING_TARGETS.availabilityP95Ms,
    },
    {
      figure: `${t.messages.toLocaleString('en-US')} scheduled messages due in one minute over ${t.boxes} numbers, PACING_SCALE=${t.pacingScale}`,
      result: `${t.seconds} s (${t.perSecond}/s), ${t.duplicates} duplicates, smallest gap ${t.minGapMs} ms`,
      baseline: `pacing ${t.expectedGapMs} ms`,
      target: 'each once, gaps ≥ pacing',
      ok: t.duplicates === 0 && t.minGapMs >= t.expectedGapMs,
    },
  ];
}

/** The section of docs/benchmarks.md for this benchmark. */
export function schedulingSection(r: SchedulingBenchResult | undefined, error?: string): string[] {
  return benchSection(
    'Scheduling',
    [
      '`bench/scheduling.bench.ts` (`runSchedulingBench()`; env `BENCH_AVAILABILITY_RUNS` 100, `BENCH_TIMED` 10000, `BENCH_TIMED_BOXES` 10,',
      '`BENCH_TIMED_PACING` 0.001). One embedded PostgreSQL, the API and the whole worker in process, the channel simulator.',
      '',
      '- **Availability**: 3 units (São Paulo, Manaus, Noronha), one 30-minute type with a 10-minute buffer, 20 professionals',
      '  (Monday-Friday 08:00-18:00 at one unit each) and 5,000 appointments with their busy time seeded by SQL; then',
      '  `GET /v1/appointments/availability` for 31 dates over the whole company through HTTP.',
      '- **Timed sends**: 10,000 live scheduled messages due in the same minute over 10 connected numbers (new numbers: 30 s',
      '  between sends × PACING_SCALE), sent by the worker\'s lanes; the run fails unless the simulator saw each exactly once',
      '  and every row settled once. The smallest gap between two sends of one number is measured at the simulator.',
    ],
    r
      ? [
          `| availability, median / p95 | ${r.availability.medianMs} ms / ${r.availability.p95Ms} ms (${r.availability.slots} slots; target p95 < ${SCHEDULING_TARGETS.availabilityP95Ms} ms) |`,
          `| timed sends | ${r.timed.messages} in ${r.timed.seconds} s (${r.timed.perSecond}/s), ${r.timed.duplicates} duplicates, smallest gap ${r.timed.minGapMs} ms (pacing ${r.timed.expectedGapMs} ms) |`,
        ]
      : null,
    error,
  );
}
