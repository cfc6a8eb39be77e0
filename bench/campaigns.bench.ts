// Campaign engine benchmark, on one embedded PostgreSQL (or BENCH_DATABASE_URL), in one run:
//  1. creation of a 10,000-recipient campaign end to end (HTTP POST /v1/campaigns through the real
//     API: JSON, validation, phone normalisation, contacts for unknown numbers, locks and checks,
//     bulk insert) against a raw INSERT ... SELECT FROM unnest(...) of the same message rows;
//  2. dispatch throughput with PACING_SCALE=0 through the simulator (whole worker, every send
//     recorded with its events), several numbers in parallel.
// Run: node --import ./scripts/ts-loader/register.mjs bench/campaigns.bench.ts
// Env: BENCH_CREATIONS (measured creations, default 15), BENCH_DISPATCH (messages, default 20000),
//      BENCH_BOXES (numbers of the dispatch pool, default 10).
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import { sql } from 'kysely';
import { AdminService, UnitOfWork, type ChannelInstance } from '@carteiro/core';
import { createBoss } from '@carteiro/pgboss';
import { createDb, migrateToLatest, pgArray, type ServiceUnitOfWork } from '@carteiro/postgres';
import { loadConfig } from '@carteiro/system';
import { buildWorkerContainer, runWorker } from '@carteiro/worker';
import { startInProcessApi } from './support/in-process-api.js';
import { startBenchDatabase } from './support/tenant.js';
import { simulatorOverride } from '../apps/worker/src/campaigns/testing/simulator-override.js';
import { env, median, percentile, round, until } from './support/measure.js';

export interface CampaignsBenchResult {
  machine: string;
  creation: { recipients: number; runs: number; medianMs: number; p95Ms: number; rawMedianMs: number; rawP95Ms: number; ratio: number };
  dispatch: { messages: number; boxes: number; seconds: number; perSecond: number; sendSpanSeconds: number; sendsPerSecond: number };
}

const p95 = (values: number[]) => percentile([...values].sort((a, b) => a - b), 95);

/** Valid Brazilian mobiles that never end in the simulator's failing 0001-0005. */
const phoneOf = (n: number) => `+55119${60_000_000 + ((n * 10 + 6) % 40_000_000)}`;

export async function runCampaignsBench(log: (line: string) => void = console.log): Promise<CampaignsBenchResult> {
  const creations = env('BENCH_CREATIONS', 15);
  const dispatchMessages = env('BENCH_DISPATCH', 20_000);
  const boxes = env('BENCH_BOXES', 10);
  const recipientsPerCampaign = 10_000;

  const database = await startBenchDatabase('campaigns');
  const { url } = database;
  const logger = pino({ level: 'silent' });
  const db = createDb(url, { poolSize: 20, applicationName: 'carteiro-bench' });
  await migrateToLatest(db);
  const boss = createBoss(url, { worker: true });
  boss.on('error', () => undefined);
  await boss.start();
  // The simulator's delivery receipts off: they stand for the providers' receipt webhooks, which API processes take,
  // so the dispatch figure is the engine's own as before they existed.
  const config = loadConfig({ ...process.env, PACING_SCALE: '0', ADMIN_TOKEN: 'bench-admin-token', SIMULATOR_RECEIPT_DELAY_MS: '0' });

  try {
    const { api, server, base } = await startInProcessApi({ config, db, boss, logger });
    const admin = api.get(AdminService);
    const uow = api.get<ServiceUnitOfWork>(UnitOfWork);

    const tenant = async (boxCount: number) => {
      const company = await admin.createCompany({
        name: 'Bench',
        dailyLimit: 100_000_000,
        concurrentCampaignsLimit: 1_000,
        companyRpm: 100_000,
        safeHours: { start: 0, end: 24 },
      });
      const setorIds: string[] = [];
      for (let i = 0; i < boxCount; i += 1) {
        const setor = await admin.createSetor(company.id, { nome: `Box ${i}` });
        await admin.updateSetor(setor.id, { warmingDailyLimit: 10_000_000 });
        const now = new Date();
        const instance: ChannelInstance = {
          id: randomUUID(), companyId: company.id, setorId: setor.id, status: 'connected', phoneNumber: `+5511970${String(i).padStart(6, '0')}`,
          providerRef: null, proxyConfigured: false, qrRequestedAt: now, connectedAt: now, disconnectedAt: null, profileName: null,
          profilePictureUrl: null, createdAt: now, updatedAt: now,
        };
        await uow.transaction((tx) => tx.channelInstances.insert(instance));
        setorIds.push(setor.id);
      }
      const { key } = await admin.createApiKey(company.id, { name: 'bench', scopes: ['*'], mode: 'live', rpm: 100_000 });
      return { companyId: company.id, setorIds, key };
    };

    // 1. Creation end to end vs the raw unnest insert of the same rows.
    const trace: Record<string, number[]> = {};
    if (process.env.BENCH_TRACE) {
      // Diagnostic only: time the two bulk statements inside the end-to-end creation.
      const pgMod = await import('@carteiro/postgres');
      const wrap = (proto: Record<string, unknown>, name: string) => {
        const original = proto[name] as (...args: unknown[]) => Promise<unknown>;
        proto[name] = async function (this: unknown, ...args: unknown[]) {
          const t = performance.now();
          try {
            return await original.apply(this, args);
          } finally {
            (trace[name] ??= []).push(performance.now() - t);
          }
        };
      };
      wrap(pgMod.KyselyContactRepository.prototype as never, 'ensureMany');
      wrap(pgMod.KyselyCampaignRepository.prototype as never, 'insertMessages');
    }
    const creator = await tenant(1);
    let offset = 0;
    const bodyFor = () => {
      const recipients = Array.from({ length: recipientsPerCampaign }, (_, i) => ({ phone: phoneOf(offset + i), name: `Cliente ${offset + i}` }));
      offset += recipientsPerCampaign;
      return JSON.stringify({ name: 'Bench', recipients, message: { text: 'Olá {{primeiro_nome}}' } });
    };
    const post = async (body: string) => {
      const started = performance.now();
      const res = await fetch(`${base}/v1/campaigns`, { method: 'POST', headers: { Authorization: `Bearer ${creator.key}`, 'Content-Type': 'application/json' }, body });
      const text = await res.text();
      const ms = performance.now() - started;
      if (res.status !== 202) throw new Error(`creation answered ${res.status}: ${text.slice(0, 300)}`);
      return { ms, id: (JSON.parse(text) as { data: { id: string } }).data.id };
    };
    const raw = async (campaignId: string) => {
      const rows = Array.from({ length: recipientsPerCampaign }, (_, i) => ({
        id: randomUUID(), seq: i, contactId: randomUUID(), phone: phoneOf(50_000_000 + offset + i), name: `Cliente ${i}`, setorId: creator.setorIds[0]!,
      }));
      offset += recipientsPerCampaign;
      // The arrays are encoded before the clock starts: the baseline is the database's work alone.
      const columns = {
        id: pgArray(rows.map((r) => r.id)),
        seq: pgArray(rows.map((r) => r.seq)),
        contactId: pgArray(rows.map((r) => r.contactId)),
        phone: pgArray(rows.map((r) => r.phone)),
        name: pgArray(rows.map((r) => r.name)),
        setorId: pgArray(rows.map((r) => r.setorId)),
      };
      const started = performance.now();
      await sql`
        INSERT INTO campaign_messages (id, campaign_id, company_id, seq, contact_id, phone, name, text, media_url, media_type, variables,
                                       status, assigned_setor_id, setor_id, created_at, updated_at)
        SELECT u.id, ${campaignId}::uuid, ${creator.companyId}::uuid, u.seq, u.contact_id, u.phone, u.name, NULL, NULL, NULL, NULL,
               'pendente', u.setor_id, u.setor_id, now(), now()
        FROM unnest(${columns.id}::uuid[], ${columns.seq}::int[], ${columns.contactId}::uuid[],
                    ${columns.phone}::text[], ${columns.name}::text[], ${columns.setorId}::uuid[])
          AS u(id, seq, contact_id, phone, name, setor_id)
      `.execute(db);
      return performance.now() - started;
    };

    const createMs: number[] = [];
    const rawMs: number[] = [];
    for (let i = 0; i < creations + 2; i += 1) {
      // Alternate so that both see the same table and cache state; the first two of each are warm-up.
      const created = await post(bodyFor());
      const baseline = await raw(created.id);
      if (i >= 2) {
        createMs.push(created.ms);
        rawMs.push(baseline);
      }
    }
    // The measured campaigns stay pendente (no worker yet); cancel them so they do not count later.
    await db.updateTable('campaigns').set({ status: 'concluido' }).where('company_id', '=', creator.companyId).execute();
    const creation = {
      recipients: recipientsPerCampaign,
      runs: createMs.length,
      medianMs: round(median(createMs)),
      p95Ms: round(p95(createMs)),
      rawMedianMs: round(median(rawMs)),
      rawP95Ms: round(p95(rawMs)),
      ratio: round(median(createMs) / median(rawMs), 2),
    };
    log(`creation of ${recipientsPerCampaign} recipients end to end: median ${creation.medianMs} ms, p95 ${creation.p95Ms} ms`);
    for (const [name, values] of Object.entries(trace)) log(`  of which ${name}: median ${round(median(values.slice(2)))} ms`);
    log(`raw INSERT ... SELECT FROM unnest of the same rows:  median ${creation.rawMedianMs} ms, p95 ${creation.rawP95Ms} ms  (ratio ${creation.ratio}x)`);

    // 2. Dispatch with PACING_SCALE=0 through the simulator.
    const sender = await tenant(boxes);
    const ids: string[] = [];
    const perCampaign = Math.min(recipientsPerCampaign, dispatchMessages);
    for (let sent = 0; sent < dispatchMessages; sent += perCampaign) {
      const recipients = Array.from({ length: perCampaign }, (_, i) => ({ phone: phoneOf(80_000_000 + sent + i) }));
      const res = await fetch(`${base}/v1/campaigns`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${sender.key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Dispatch', recipients, message: { text: 'Oi {{nome}}' }, options: { anti_ban_level: 'normal' } }),
      });
      if (res.status !== 202) throw new Error(`dispatch campaign answered ${res.status}: ${await res.text()}`);
      ids.push(((await res.json()) as { data: { id: string } }).data.id);
    }
    if (process.env.BENCH_NO_TRIGGER) await sql`ALTER TABLE domain_events DISABLE TRIGGER USER`.execute(db);
    const overrides = [simulatorOverride(db)];
    const workerContainer = buildWorkerContainer({ config, db, boss, logger, overrides });
    if (process.env.BENCH_FAKE_GATEWAY) {
      // Diagnostic only: the engine's own ceiling, with a gateway that does nothing.
      const { ChannelGateway } = await import('@carteiro/core');
      let n = 0;
      const fake = { capabilities: () => ({ text: true, media: true, templates: false, interactive: false, polls: true, events: true, conversationWindow: false }), send: async () => ({ ok: true, providerMessageId: `p${n++}`, sentAt: new Date() }) };
      await workerContainer.unbind(ChannelGateway);
      workerContainer.bind(ChannelGateway).toConstantValue(fake as never);
    }
    if (process.env.BENCH_WHATIF_SIMULATOR) {
      // Diagnostic only: the simulator with one database round trip per send instead of three (its
      // INSERT … ON CONFLICT already returns the original of a re-send; session ends cached 1 s).
      const { ChannelGateway, Repositories } = await import('@carteiro/core');
      const { createChannelGateway } = await import('@carteiro/channels');
      const { KyselyChannelSimulatorStore } = await import('@carteiro/postgres');
      const store = new KyselyChannelSimulatorStore(db);
      const ends = new Map<string, { at: number; value: Awaited<ReturnType<typeof store.lastSessionEnd>> }>();
      const lean = Object.assign(Object.create(store) as typeof store, {
        findByClientMessageId: async () => null,
        lastSessionEnd: async (instanceId: string) => {
          const hit = ends.get(instanceId);
          if (hit && Date.now() - hit.at < 1000) return hit.value;
          const value = await store.lastSessionEnd(instanceId);
          ends.set(instanceId, { at: Date.now(), value });
          return value;
        },
      });
      const repos = workerContainer.get<import('@carteiro/core').Repositories<import('@carteiro/core').ChannelRepositories>>(Repositories);
      const gateway = createChannelGateway({ simulatorScanDelayMs: 0 }, {
        clock: { now: () => new Date() }, ids: { newId: () => randomUUID() }, random: { next: Math.random, bytes: (n: number) => new Uint8Array(n) },
        simulatorStore: lean, conversationWindows: repos.conversationWindows,
      });
      await workerContainer.unbind(ChannelGateway);
      workerContainer.bind(ChannelGateway).toConstantValue(gateway);
    }
    const started = performance.now();
    const worker = await runWorker(workerContainer, boss);
    await until(async () => {
      const row = await db.selectFrom('campaigns').select((eb) => eb.fn.countAll<number>().as('n')).where('id', 'in', ids).where('status', '=', 'concluido').executeTakeFirstOrThrow();
      return Number(row.n) === ids.length;
    }, 600_000);
    const seconds = (performance.now() - started) / 1000;
    await worker.stop();
    const span = await db
      .selectFrom('simulator_messages')
      .select((eb) => [eb.fn.min('sent_at').as('first'), eb.fn.max('sent_at').as('last'), eb.fn.countAll<number>().as('n')])
      .where('company_id', '=', sender.companyId)
      .executeTakeFirstOrThrow();
    const totals = await db.selectFrom('campaigns').select((eb) => eb.fn.sum<number>('enviados').as('sent')).where('id', 'in', ids).executeTakeFirstOrThrow();
    if (Number(totals.sent) !== dispatchMessages || (Number(span.n) !== dispatchMessages && !process.env.BENCH_FAKE_GATEWAY)) {
      throw new Error(`dispatch sent ${totals.sent} recorded / ${span.n} at the simulator, expected ${dispatchMessages}`);
    }
    const sendSpanSeconds = (new Date(span.last as Date).getTime() - new Date(span.first as Date).getTime()) / 1000;
    const dispatch = {
      messages: dispatchMessages,
      boxes,
      seconds: round(seconds, 2),
      perSecond: Math.round(dispatchMessages / seconds),
      sendSpanSeconds: round(sendSpanSeconds, 2),
      sendsPerSecond: Math.round(dispatchMessages / sendSpanSeconds),
    };
    log(`dispatch of ${dispatchMessages} messages over ${boxes} numbers, PACING_SCALE=0: ${dispatch.seconds} s from worker start to completion = ${dispatch.perSecond} sends/s (first to last send: ${dispatch.sendsPerSecond} sends/s)`);
    server.close();
    const machine = `${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`;
    log(`machine: ${machine}`);
    return { machine, creation, dispatch };
  } finally {
    await boss.stop({ graceful: false, wait: true }).catch(() => undefined);
    await db.destroy();
    await database.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runCampaignsBench();
}
