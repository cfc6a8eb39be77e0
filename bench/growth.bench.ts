// Growth benchmark (issue 17, part 4): the hot reads and claims of one company stay flat while the
// tables that grow with traffic hold a large synthetic history, and housekeeping's retention is a
// partition drop. Run alone:
//   node --import ./scripts/ts-loader/register.mjs bench/growth.bench.ts
// or `BENCH_ONLY=growth npm run bench`.
// Env (history sizes; a smoke run sets them small):
//   BENCH_GROWTH_EVENTS (domain events, default 1000000), BENCH_GROWTH_DELIVERIES (webhook deliveries, each with one
//   attempt, default 500000), BENCH_GROWTH_SIMULATOR (simulator outbox rows, default 300000),
//   BENCH_GROWTH_CAMPAIGN_MESSAGES (recipients of finished campaigns, default 1000000), BENCH_GROWTH_DAYS (days the
//   history spans, default 44: the oldest are past the 30-day retention, a whole week of them at least), BENCH_GROWTH_READS (timed calls per query
//   and phase, default 300), BENCH_GROWTH_MIGRATION_EVENTS (events in the database the 0016 migrations convert, with half as
//   many deliveries and a quarter as many simulator messages; default 300000, 0 skips it), BENCH_GROWTH_PLANS=1 prints
//   every captured query plan.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createCompany, type DomainEvent } from '@carteiro/core';
import {
  KyselyChannelSimulatorStore,
  KyselyReportQueries,
  KyselyUnitOfWork,
  TIME_PARTITIONED_TABLES,
  createDb,
  ensureDatabase,
  migrationProvider,
  ensurePartitions,
  ensureTimePartitions,
  kyselyRepositories,
  listPartitions,
  migrateToLatest,
  type Database,
} from '@carteiro/postgres';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { wholeTableReads } from '@carteiro/postgres/testing';
import type { SummaryRow } from './support/report.js';
import { startBenchDatabase } from './support/tenant.js';

export interface GrowthQueryFigure {
  query: string;
  baseline: { medianMs: number; p99Ms: number };
  loaded: { medianMs: number; p99Ms: number };
  /** Loaded median ÷ baseline median. */
  ratio: number;
}

export interface GrowthBenchResult {
  history: { events: number; deliveries: number; attempts: number; simulator: number; campaignMessages: number; days: number; seconds: number; databaseMb: number };
  queries: GrowthQueryFigure[];
  /** Captured statements on the grown tables whose plan reads a non-empty partition or table sequentially (should be none). */
  seqScans: string[];
  plansChecked: number;
  housekeeping: {
    /** A DELETE of one day of events past retention (the pre-partition purge), for comparison. */
    deleteOneDay: { rows: number; ms: number };
    drop: { table: string; partitions: number; rows: number; ms: number }[];
    ensureAheadMs: number;
  };
  /** Most partitions any one table had during the loaded phase. */
  partitions: number;
  /** The 0016 migrations on a database holding rows in the unpartitioned tables (null when skipped). */
  migration: { rows: number; seconds: number; rowsPerSecond: number } | null;
}

/**
 * A database migrated up to 0015, holding `events` events (30 days), half as many deliveries with an
 * attempt each and a quarter as many simulator messages; then the 0016 migrations are timed.
 */
async function timeMigration(adminUrl: string, events: number, log: (line: string) => void): Promise<GrowthBenchResult['migration']> {
  if (events <= 0) return null;
  const name = `bench_growth_migration_${randomUUID().slice(0, 8)}`;
  await ensureDatabase(adminUrl, name);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = createDb(url.toString(), { poolSize: 2 });
  try {
    const before0016 = {
      async getMigrations() {
        return Object.fromEntries(Object.entries(await migrationProvider.getMigrations()).filter(([m]) => m < '0016'));
      },
    };
    const { error } = await new Migrator({ db, provider: before0016 }).migrateToLatest();
    if (error) throw error;
    const deliveries = Math.round(events / 2);
    const simulator = Math.round(events / 4);
    await sql`ALTER TABLE domain_events DISABLE TRIGGER USER`.execute(db);
    await sql`
      INSERT INTO domain_events (id, event, company_id, setor_id, occurred_at, data, actor)
      SELECT gen_random_uuid(), 'message.sent', md5('company' || (n % 1000))::uuid, NULL,
        date_trunc('milliseconds', now() - (n::float8 / ${events}) * interval '30 days'), jsonb_build_object('n', n), '{"user_id":null,"source":"system"}'
      FROM generate_series(1, ${events}::int) AS n
    `.execute(db);
    await sql`ALTER TABLE domain_events ENABLE TRIGGER USER`.execute(db);
    await sql`
      INSERT INTO webhook_deliveries (id, company_id, webhook_id, callback_url, event_id, event, payload, status, attempts, round_attempts, created_at, updated_at, completed_at)
      SELECT gen_random_uuid(), md5('company' || (n % 1000))::uuid, NULL, 'https://cb.example.com/x', gen_random_uuid(), 'message.sent', '{}', 'succeeded', 1, 1, t, t, t
      FROM (SELECT n, date_trunc('milliseconds', now() - (n::float8 / ${deliveries}) * interval '30 days') AS t FROM generate_series(1, ${deliveries}::int) AS n) s
    `.execute(db);
    await sql`INSERT INTO webhook_attempts (delivery_id, number, started_at, duration_ms, status_code, result) SELECT id, 1, created_at, 10, 200, 'succeeded' FROM webhook_deliveries`.execute(db);
    await sql`
      INSERT INTO simulator_messages (id, client_message_id, company_id, setor_id, instance_id, to_number, to_digits, kind, payload, outcome, sent_at)
      SELECT gen_random_uuid(), 'm-' || n, md5('company' || (n % 1000))::uuid, gen_random_uuid(), gen_random_uuid(), '+5511900000001', '5511900000001', 'text', '{}', 'sent',
        date_trunc('milliseconds', now() - (n::float8 / ${simulator}) * interval '7 days')
      FROM generate_series(1, ${simulator}::int) AS n
    `.execute(db);
    await sql`VACUUM ANALYZE`.execute(db);
    const rows = events + deliveries * 2 + simulator;
    const started = performance.now();
    await migrateToLatest(db);
    const seconds = round((performance.now() - started) / 1000, 1);
    log(`growth: the 0016 migrations moved ${rows.toLocaleString('en-US')} rows into partitions in ${seconds} s`);
    return { rows, seconds, rowsPerSecond: Math.round(rows / seconds) };
  } finally {
    await db.destroy();
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).finally(() => admin.end());
  }
}

export const GROWTH_TARGETS = { maxRatio: 2 };

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const round = (n: number, digits = 2) => Number(n.toFixed(digits));
const DAY = 86_400_000;

function stats(times: number[]): { medianMs: number; p99Ms: number } {
  const sorted = [...times].sort((a, b) => a - b);
  return { medianMs: round(percentile(sorted, 50), 3), p99Ms: round(percentile(sorted, 99), 3) };
}

async function timed(label: string, runs: number, work: (i: number) => Promise<unknown>, between?: (i: number) => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs + 10; i++) {
    if (between) await between(i);
    const t = performance.now();
    await work(i);
    if (i >= 10) times.push(performance.now() - t);
  }
  if (times.some((t) => !Number.isFinite(t))) throw new Error(`${label}: bad timing`);
  return times;
}

const CONTROL = 'control: SELECT 1 round trip (machine noise, not a table)';
const GROWN = /\b(domain_events|webhook_deliveries|webhook_attempts|webhook_event_queue|simulator_messages|simulator_message_keys|campaign_messages)\b/;

export async function runGrowthBench(log: (line: string) => void = console.log): Promise<GrowthBenchResult> {
  const sizes = {
    events: env('BENCH_GROWTH_EVENTS', 1_000_000),
    deliveries: env('BENCH_GROWTH_DELIVERIES', 500_000),
    simulator: env('BENCH_GROWTH_SIMULATOR', 300_000),
    campaignMessages: env('BENCH_GROWTH_CAMPAIGN_MESSAGES', 1_000_000),
    days: env('BENCH_GROWTH_DAYS', 44),
  };
  const reads = env('BENCH_GROWTH_READS', 300);
  const database = await startBenchDatabase('growth');
  // Every statement the repositories send is captured (SQL and parameters), to EXPLAIN it on the grown tables.
  const captured = new Map<string, readonly unknown[]>();
  let capturing = false;
  const pool = new pg.Pool({ connectionString: database.url, max: 4, application_name: 'carteiro-bench-growth' });
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      if (capturing && event.level === 'query' && GROWN.test(event.query.sql) && !captured.has(event.query.sql)) captured.set(event.query.sql, event.query.parameters);
    },
  });
  try {
    await migrateToLatest(db);
    const uow = new KyselyUnitOfWork(db);
    const repos = kyselyRepositories(db);
    const store = new KyselyChannelSimulatorStore(db);
    const now = new Date();

    // The hot company: a webhook with 2,000 deliveries over the last month, a running campaign of
    // 10,000 recipients on one number, 1,000 simulated messages. Another company owns the history.
    const hot = randomUUID();
    const busy = randomUUID();
    await uow.transaction(async (tx) => {
      await tx.companies.insert(createCompany(hot, now, { name: 'Hot' }));
      await tx.companies.insert(createCompany(busy, now, { name: 'Busy' }));
    });
    const hook = randomUUID();
    await db
      .insertInto('webhooks')
      .values({ id: hook, company_id: hot, url: 'https://hooks.example.com/in', events: ['message.sent'], secret: 'x'.repeat(64), active: true, created_at: now, updated_at: now })
      .execute();
    for (const spec of TIME_PARTITIONED_TABLES) await ensurePartitions(db, spec, new Date(now.getTime() - sizes.days * DAY), now);

    const insertDeliveries = (count: number, company: string, webhook: string | null, status: string, spanDays: number, offsetMs = 0) => sql`
      WITH d AS (
        INSERT INTO webhook_deliveries (id, company_id, webhook_id, callback_url, event_id, event, payload, status, attempts, round_attempts,
          next_attempt_at, created_at, updated_at, completed_at)
        SELECT gen_random_uuid(), ${company}::uuid, ${webhook}::uuid, CASE WHEN ${webhook}::uuid IS NULL THEN 'https://cb.example.com/x' END,
          gen_random_uuid(), 'message.sent', '{"event":"message.sent","data":{"status":"sent"}}', ${status}, 1, 1,
          CASE WHEN ${status} = 'pending' THEN now() END, t, t, CASE WHEN ${status} = 'pending' THEN NULL ELSE t END
        FROM (SELECT date_trunc('milliseconds', now() - ${offsetMs}::int * interval '1 millisecond' - (n::float8 / ${count}) * ${spanDays}::int * interval '1 day') AS t
              FROM generate_series(1, ${count}::int) AS n) s
        RETURNING id, created_at
      )
      INSERT INTO webhook_attempts (delivery_id, delivery_created_at, number, started_at, duration_ms, status_code, error, result)
      SELECT id, created_at, 1, created_at, 12, 200, NULL, 'succeeded' FROM d
    `;
    await insertDeliveries(2000, hot, hook, 'succeeded', 30).execute(db);
    const hotDeliveries = (await db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', hook).orderBy('id').limit(200).execute()).map((r) => r.id);
    const hotSetor = randomUUID();
    const hotCampaign = randomUUID();
    const insertCampaign = (id: string, company: string, status: string, setor: string, total: number, at: Date) => sql`
      INSERT INTO campaigns (id, company_id, mode, name, status, content, anti_ban_level, distribution, distribution_mode, setor_ids, execution_mode,
        total, enviados, created_at, updated_at, started_at, finished_at)
      VALUES (${id}, ${company}, 'live', 'bench', ${status}, '{"text":"Oi {{nome}}"}', 'normal', 'round_robin', 'auto', ARRAY[${setor}]::uuid[], 'immediate',
        ${total}, ${status === 'concluido' ? total : 0}, ${at}, ${at}, ${at}, ${status === 'concluido' ? at : null})
    `;
    const insertRecipients = (campaign: string, company: string, setor: string, status: string, count: number, at: Date) => sql`
      INSERT INTO campaign_messages (id, campaign_id, company_id, seq, phone, name, status, assigned_setor_id, setor_id, created_at, updated_at, sent_at)
      SELECT gen_random_uuid(), ${campaign}, ${company}, n, '+55119' || lpad(n::text, 8, '0'), 'Pessoa ' || n, ${status}, ${setor}, ${setor},
        ${at}, ${at}, CASE WHEN ${status} = 'enviado' THEN ${at}::timestamptz END
      FROM generate_series(1, ${count}::int) AS n
    `;
    await insertCampaign(hotCampaign, hot, 'processando', hotSetor, 10_000, now).execute(db);
    await insertRecipients(hotCampaign, hot, hotSetor, 'pendente', 10_000, now).execute(db);
    const hotInstance = randomUUID();
    const hotClient = `hot-${randomUUID()}`;
    await sql`
      INSERT INTO simulator_message_keys (client_message_id, sent_at)
      SELECT ${hotClient} || '-' || n, date_trunc('milliseconds', now() - n * interval '5 minutes') FROM generate_series(1, 1000) AS n
    `.execute(db);
    await sql`
      INSERT INTO simulator_messages (id, client_message_id, company_id, setor_id, instance_id, from_number, to_number, to_digits, kind, text, payload, outcome, sent_at)
      SELECT gen_random_uuid(), client_message_id, ${hot}, ${hotSetor}, ${hotInstance}, '+5511911112222', '+5511900000001', '5511900000001', 'text', 'oi',
        '{"kind":"text","text":"oi"}', 'sent', sent_at FROM simulator_message_keys WHERE client_message_id LIKE ${hotClient} || '-%'
    `.execute(db);
    await sql`VACUUM ANALYZE`.execute(db);

    const hotEvent = (): DomainEvent => ({
      id: randomUUID(),
      event: 'message.sent',
      companyId: hot,
      setorId: hotSetor,
      occurredAt: new Date(),
      data: { status: 'sent' },
      actor: { user_id: null, source: 'system' },
    });
    // The operations measured: what the API and the worker do on these tables for one company.
    const operations: { query: string; run: (i: number) => Promise<unknown>; before?: (i: number) => Promise<unknown> }[] = [
      // The machine's state in each phase (this VM is shared): a round trip that no table size can change.
      { query: CONTROL, run: () => sql`SELECT 1`.execute(db) },
      { query: 'webhook delivery log page (GET /v1/webhooks/:id/deliveries, with count)', run: () => repos.webhookDeliveries.listByWebhook(hot, hook, { page: 1, limit: 20 }) },
      { query: 'webhook delivery by id (GET …/deliveries/:id)', run: (i) => repos.webhookDeliveries.findInWebhook(hot, hook, hotDeliveries[i % hotDeliveries.length]!) },
      { query: 'campaign detail (GET /v1/campaigns/:id)', run: () => repos.campaigns.findByIdInCompany(hot, hotCampaign) },
      { query: 'campaign recipients page 5 (GET /v1/campaigns/:id/messages)', run: () => repos.campaigns.listMessages(hotCampaign, {}, { page: 5, limit: 50 }) },
      {
        query: 'lane claim of 20 recipients (campaign dispatch)',
        run: () => uow.transaction((tx) => tx.campaigns.claimMessages(hotSetor, 'bench', 20, new Date())),
        before: () => sql`UPDATE campaign_messages SET status = 'pendente', claimed_by = NULL WHERE campaign_id = ${hotCampaign} AND status = 'enviando'`.execute(db),
      },
      {
        query: 'outbox take of 20 events (webhook fan-out)',
        run: () => uow.transaction((tx) => tx.webhookEvents.take(20)),
        before: () => uow.transaction((tx) => tx.events.record(Array.from({ length: 20 }, hotEvent))),
      },
      {
        query: 'delivery claim of 20 due (webhook dispatcher)',
        run: () => uow.transaction((tx) => tx.webhookDeliveries.claimDue(new Date(), 20, new Date(Date.now() + 120_000))),
        before: async () => {
          await sql`UPDATE webhook_deliveries SET status = 'succeeded', completed_at = now(), locked_until = NULL WHERE status = 'pending'`.execute(db);
          // Callback deliveries of the hot company: its webhook keeps its 2,000 deliveries, as the log reads above assume.
          await insertDeliveries(20, hot, null, 'pending', 0).execute(db);
        },
      },
      { query: 'simulator outbox of a company (GET /admin/v1/simulator/messages)', run: () => store.listMessages({ companyId: hot, limit: 20 }) },
      { query: 'simulator message by client id (re-send check)', run: (i) => store.findByClientMessageId(`${hotClient}-${1 + (i % 1000)}`) },
    ];

    const measure = async () => {
      const out = new Map<string, number[]>();
      for (const op of operations) out.set(op.query, await timed(op.query, reads, op.run, op.before));
      return out;
    };
    log(`growth: baseline (only the hot company's rows), ${reads} calls per query`);
    const baseline = await measure();

    // The history: spread evenly over the last BENCH_GROWTH_DAYS days, owned by a thousand other companies.
    const loadStarted = performance.now();
    // The simulator keeps a week: older rows would have been dropped day by day, so its history spans a little more.
    const simulatorDays = Math.min(sizes.days, 9);
    await sql`ALTER TABLE domain_events DISABLE TRIGGER USER`.execute(db);
    await sql`
      INSERT INTO domain_events (id, event, company_id, setor_id, occurred_at, data, actor)
      SELECT gen_random_uuid(), (ARRAY['message.sent', 'message.failed', 'campaign.completed', 'message.received'])[1 + n % 4],
        md5('company' || (n % 1000))::uuid, NULL, date_trunc('milliseconds', now() - (n::float8 / ${sizes.events}) * ${sizes.days}::int * interval '1 day'),
        jsonb_build_object('status', 'sent', 'n', n), '{"user_id":null,"source":"system"}'
      FROM generate_series(1, ${sizes.events}::int) AS n
    `.execute(db);
    await sql`ALTER TABLE domain_events ENABLE TRIGGER USER`.execute(db);
    log(`growth: ${sizes.events.toLocaleString('en-US')} events in ${round((performance.now() - loadStarted) / 1000, 1)} s`);
    // Other companies' deliveries go to 200 webhooks of their own (so an index on webhook_id is as selective as in life).
    await sql`
      INSERT INTO webhooks (id, company_id, url, events, secret, active, created_at, updated_at)
      SELECT md5('hook' || n)::uuid, ${busy}, 'https://hooks.example.com/' || n, ARRAY['message.sent'], repeat('x', 64), true, now(), now()
      FROM generate_series(1, 200) AS n
    `.execute(db);
    await sql`
      WITH d AS (
        INSERT INTO webhook_deliveries (id, company_id, webhook_id, callback_url, event_id, event, payload, status, attempts, round_attempts,
          next_attempt_at, created_at, updated_at, completed_at)
        SELECT gen_random_uuid(), ${busy}, md5('hook' || (1 + n % 200))::uuid, NULL, gen_random_uuid(), 'message.sent',
          '{"event":"message.sent","data":{"status":"sent"}}', 'succeeded', 1, 1, NULL, t, t, t
        FROM (SELECT n, date_trunc('milliseconds', now() - interval '1 second' - (n::float8 / ${sizes.deliveries}) * ${sizes.days}::int * interval '1 day') AS t
              FROM generate_series(1, ${sizes.deliveries}::int) AS n) s
        RETURNING id, created_at
      )
      INSERT INTO webhook_attempts (delivery_id, delivery_created_at, number, started_at, duration_ms, status_code, error, result)
      SELECT id, created_at, 1, created_at, 12, 200, NULL, 'succeeded' FROM d
    `.execute(db);
    log(`growth: + ${sizes.deliveries.toLocaleString('en-US')} deliveries with their attempts, ${round((performance.now() - loadStarted) / 1000, 1)} s`);
    await sql`
      WITH k AS (
        INSERT INTO simulator_message_keys (client_message_id, sent_at)
        SELECT 'hist-' || n, date_trunc('milliseconds', now() - (n::float8 / ${sizes.simulator}) * ${simulatorDays}::int * interval '1 day')
        FROM generate_series(1, ${sizes.simulator}::int) AS n
        RETURNING client_message_id, sent_at
      )
      INSERT INTO simulator_messages (id, client_message_id, company_id, setor_id, instance_id, from_number, to_number, to_digits, kind, text, payload, outcome, sent_at)
      SELECT gen_random_uuid(), client_message_id, ${busy}, md5('setor' || (right(client_message_id, 2)))::uuid, ${hotInstance}, '+5511911112222',
        '+55119' || right(client_message_id, 8), '55119' || right(client_message_id, 8), 'text', 'Oi, tudo bem?', '{"kind":"text","text":"Oi, tudo bem?"}', 'sent', sent_at
      FROM k
    `.execute(db);
    log(`growth: + ${sizes.simulator.toLocaleString('en-US')} simulator messages over ${simulatorDays} days (its retention is 7), ${round((performance.now() - loadStarted) / 1000, 1)} s`);
    const perCampaign = 10_000;
    const campaigns = Math.max(1, Math.round(sizes.campaignMessages / perCampaign));
    for (let c = 0; c < campaigns; c++) {
      const id = randomUUID();
      const setor = randomUUID();
      const at = new Date(now.getTime() - (c / campaigns) * 365 * DAY);
      await insertCampaign(id, busy, 'concluido', setor, perCampaign, at).execute(db);
      await insertRecipients(id, busy, setor, 'enviado', Math.min(perCampaign, sizes.campaignMessages), at).execute(db);
    }
    log(`growth: + ${(campaigns * Math.min(perCampaign, sizes.campaignMessages)).toLocaleString('en-US')} campaign messages (${campaigns} finished campaigns over a year), ${round((performance.now() - loadStarted) / 1000, 1)} s`);
    await sql`VACUUM ANALYZE`.execute(db);
    const loadSeconds = round((performance.now() - loadStarted) / 1000, 1);
    const size = await sql<{ mb: number }>`SELECT (pg_database_size(current_database()) / 1048576)::int AS mb`.execute(db);
    log(`growth: history loaded and analysed in ${loadSeconds} s; database ${size.rows[0]?.mb} MB`);
    const partitions = Math.max(...(await Promise.all(TIME_PARTITIONED_TABLES.map(async (t) => (await listPartitions(db, t.table)).length))));

    log('growth: with the history');
    const loaded = await measure();
    capturing = true;
    for (const op of operations) {
      await op.before?.(0);
      await op.run(0);
    }
    // The other statements of these repositories, once each, so that their plans are checked too.
    await repos.webhookDeliveries.nextWakeUp(new Date());
    await repos.webhookDeliveries.listByWebhook(hot, hook, { page: 1, limit: 20 }, 'succeeded');
    const [claimed] = await uow.transaction((tx) => tx.webhookDeliveries.claimDue(new Date(), 1, new Date(Date.now() + 1000)));
    if (claimed) {
      const d = claimed.delivery;
      await uow.transaction((tx) =>
        tx.webhookDeliveries.saveAttempts([
          {
            delivery: { ...d, status: 'succeeded', attempts: d.attempts + 1, completedAt: new Date(), lockedUntil: null },
            attempt: { deliveryId: d.id, number: d.attempts + 1, startedAt: new Date(), durationMs: 5, statusCode: 200, error: null, result: 'succeeded' },
          },
        ]),
      );
      await repos.webhookDeliveries.update({ ...d, status: 'succeeded', completedAt: new Date() });
    }
    await store.listMessages({ to: '+5511900000001', limit: 20 });
    await store.listMessages({ setorId: hotSetor, limit: 20 });
    await store.recordMessage({
      id: randomUUID(), clientMessageId: `${hotClient}-1`, companyId: hot, setorId: hotSetor, instanceId: hotInstance, from: null, to: '+5511900000001', kind: 'text',
      text: 'oi', mediaUrl: null, mediaType: null, mediaFilename: null, templateName: null, payload: {}, outcome: 'sent', errorCode: null, error: null, providerFailure: false, sentAt: new Date(),
    });
    await repos.campaigns.messagesInStatus(hotCampaign, ['enviando']);
    // The summary report reads received messages and conversation openings from the outbox by period.
    await new KyselyReportQueries(db).summary({ companyId: hot, from: new Date(now.getTime() - 30 * DAY), to: now, setorId: null });
    await repos.events.purgeBefore(new Date(0));
    await repos.webhookDeliveries.purgeFinishedBefore(new Date(0));
    capturing = false;

    // Plans: every captured statement, EXPLAINed with its own parameters on the grown tables.
    const seqScans: string[] = [];
    const client = await pool.connect();
    try {
      for (const [text, parameters] of captured) {
        if (/^\s*(begin|commit|rollback)/i.test(text)) continue;
        if (process.env.BENCH_GROWTH_PLANS === '1') {
          const plan = (await client.query(`EXPLAIN ${text}`, parameters as unknown[])).rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
          log(`\n${text.replace(/\s+/g, ' ').slice(0, 300)}\n${plan}`);
        }
        // The same judgement as the route-plan audit (apps/api/src/plans): a relation of more than 1,000 rows read whole.
        for (const read of await wholeTableReads(client, { text, values: parameters }, 1000)) {
          seqScans.push(`${read.relation} (${read.node}) in: ${text.replace(/\s+/g, ' ').slice(0, 120)}`);
        }
      }
    } finally {
      client.release();
    }
    log(`growth: ${captured.size} statements on the grown tables EXPLAINed; sequential scans of a large table: ${seqScans.length === 0 ? 'none' : seqScans.join('; ')}`);

    const queries: GrowthQueryFigure[] = operations.map(({ query }) => {
      const b = stats(baseline.get(query)!);
      const l = stats(loaded.get(query)!);
      return { query, baseline: b, loaded: l, ratio: round(l.medianMs / b.medianMs, 2) };
    });
    for (const q of queries) log(`growth: ${q.query}: median ${q.baseline.medianMs} → ${q.loaded.medianMs} ms (×${q.ratio}), p99 ${q.baseline.p99Ms} → ${q.loaded.p99Ms} ms`);

    // Housekeeping: the old purge (one DELETE of a day past retention) against the partition drops.
    const oldest = new Date(Math.floor((now.getTime() - (sizes.days - 1) * DAY) / DAY) * DAY);
    let t = performance.now();
    const deleted = await sql`DELETE FROM domain_events WHERE occurred_at >= ${oldest} AND occurred_at < ${new Date(oldest.getTime() + DAY)}`.execute(db);
    const deleteOneDay = { rows: Number(deleted.numAffectedRows ?? 0), ms: round(performance.now() - t, 1) };
    log(`growth: DELETE of one day of events (${deleteOneDay.rows.toLocaleString('en-US')} rows): ${deleteOneDay.ms} ms`);
    const drop: GrowthBenchResult['housekeeping']['drop'] = [];
    const retention30 = new Date(now.getTime() - 30 * DAY);
    const purges: [string, () => Promise<number>][] = [
      ['domain_events', () => repos.events.purgeBefore(retention30)],
      ['webhook_deliveries + webhook_attempts', () => repos.webhookDeliveries.purgeFinishedBefore(retention30)],
      ['simulator_messages (7 days)', () => store.purgeMessagesBefore(new Date(now.getTime() - 7 * DAY))],
    ];
    for (const [table, purge] of purges) {
      const parent = table.split(' ')[0]!;
      const before = (await listPartitions(db, parent)).length;
      t = performance.now();
      const rows = await purge();
      const ms = round(performance.now() - t, 1);
      const partitionsDropped = before - (await listPartitions(db, parent)).length;
      drop.push({ table, partitions: partitionsDropped, rows, ms });
      log(`growth: housekeeping drop of ${table}: ${partitionsDropped} partitions (~${rows.toLocaleString('en-US')} rows) in ${ms} ms${partitionsDropped > 1 ? ` (${round(ms / partitionsDropped, 1)} ms each)` : ''}`);
    }
    t = performance.now();
    await ensureTimePartitions(db, new Date(now.getTime() + DAY));
    const ensureAheadMs = round(performance.now() - t, 1);
    log(`growth: creating the next partitions of the four tables: ${ensureAheadMs} ms`);
    const migration = await timeMigration(database.url, env('BENCH_GROWTH_MIGRATION_EVENTS', 300_000), log);

    return {
      history: {
        events: sizes.events,
        deliveries: sizes.deliveries,
        attempts: sizes.deliveries,
        simulator: sizes.simulator,
        campaignMessages: campaigns * Math.min(perCampaign, sizes.campaignMessages),
        days: sizes.days,
        seconds: loadSeconds,
        databaseMb: Number(size.rows[0]?.mb ?? 0),
      },
      queries,
      seqScans,
      plansChecked: captured.size,
      housekeeping: { deleteOneDay, drop, ensureAheadMs },
      partitions,
      migration,
    };
  } finally {
    await db.destroy();
    await database.stop();
  }
}

/** Rows of the summary table of docs/benchmarks.md. */
export function growthRows(g?: GrowthBenchResult): SummaryRow[] {
  if (!g) return [];
  const measured = g.queries.filter((q) => q.query !== CONTROL);
  const control = g.queries.find((q) => q.query === CONTROL);
  const worst = measured.reduce((a, b) => (b.ratio > a.ratio ? b : a));
  return [
    {
      figure: `Hot reads and claims of one company with ${(g.history.events + g.history.deliveries * 2 + g.history.simulator + g.history.campaignMessages).toLocaleString('en-US')} rows of history (worst median ratio: ${worst.query})`,
      result: `×${worst.ratio} (${worst.loaded.medianMs} ms)`,
      baseline: `same queries before the history: ${worst.baseline.medianMs} ms; control round trip ×${control?.ratio ?? '?'}`,
      target: `≤ ${GROWTH_TARGETS.maxRatio}×, no sequential scan of a large table`,
      ok: worst.ratio <= GROWTH_TARGETS.maxRatio && g.seqScans.length === 0,
    },
  ];
}

/** The section of docs/benchmarks.md. */
export function growthSection(g?: GrowthBenchResult, error?: string): string[] {
  const L: string[] = ['## Growth', ''];
  L.push(
    '`bench/growth.bench.ts` (`runGrowthBench()`; env `BENCH_GROWTH_EVENTS` 1000000, `BENCH_GROWTH_DELIVERIES` 500000,',
    '`BENCH_GROWTH_SIMULATOR` 300000, `BENCH_GROWTH_CAMPAIGN_MESSAGES` 1000000, `BENCH_GROWTH_DAYS` 44, `BENCH_GROWTH_READS` 300).',
    "The repositories' own statements for one company (a webhook with 2,000 deliveries, a running 10,000-recipient",
    'campaign, 1,000 simulated messages), timed before and after loading a history owned by other companies, spread over',
    'the last 44 days (events, deliveries with an attempt each; the simulator outbox over 9) and a year (finished campaigns); then',
    'every statement captured is EXPLAINed on the grown tables, and housekeeping drops what is past retention.',
    '',
  );
  if (!g) return [...L, `Did not run: ${error ?? 'skipped'}`, ''];
  L.push(
    `History: ${g.history.events.toLocaleString('en-US')} events, ${g.history.deliveries.toLocaleString('en-US')} deliveries and as many attempts, ${g.history.simulator.toLocaleString('en-US')} simulator messages, ${g.history.campaignMessages.toLocaleString('en-US')} campaign messages; loaded in ${g.history.seconds} s, database ${g.history.databaseMb} MB, up to ${g.partitions} partitions per table.`,
    '',
  );
  L.push('| Query | Baseline median / p99 | With history median / p99 | Ratio |', '|---|---|---|---|');
  for (const q of g.queries) L.push(`| ${q.query} | ${q.baseline.medianMs} / ${q.baseline.p99Ms} ms | ${q.loaded.medianMs} / ${q.loaded.p99Ms} ms | ×${q.ratio} |`);
  L.push('');
  L.push(`Plans: ${g.plansChecked} statements EXPLAINed, sequential scans of a large table: ${g.seqScans.length === 0 ? 'none' : g.seqScans.join('; ')}.`, '');
  L.push('| Housekeeping | Result |', '|---|---|');
  L.push(`| DELETE of one day of events (the purge before partitions) | ${g.housekeeping.deleteOneDay.rows.toLocaleString('en-US')} rows in ${g.housekeeping.deleteOneDay.ms} ms |`);
  for (const d of g.housekeeping.drop) L.push(`| drop of ${d.table} past retention | ${d.partitions} partitions (~${d.rows.toLocaleString('en-US')} rows) in ${d.ms} ms${d.partitions > 1 ? ` (${round(d.ms / d.partitions, 1)} ms each)` : ''} |`);
  L.push(`| creating the next partitions of the four tables | ${g.housekeeping.ensureAheadMs} ms |`);
  if (g.migration) L.push(`| the 0016 migrations on existing rows | ${g.migration.rows.toLocaleString('en-US')} rows in ${g.migration.seconds} s (${g.migration.rowsPerSecond.toLocaleString('en-US')} rows/s) |`);
  L.push('');
  return L;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await runGrowthBench();
  console.log(JSON.stringify(result, null, 2));
}
