// CRM and contracts benchmark: opportunity list and count among BENCH_OPPORTUNITIES (default 100,000) opportunities of
// one company, and a contract send end to end through the simulators (channel and signing) with the real pdfkit
// renderer. Run:
//   node --import ./scripts/ts-loader/register.mjs bench/crm.bench.ts
// Env: BENCH_OPPORTUNITIES (100000), BENCH_CRM_QUERIES (300), BENCH_CONTRACT_SENDS (30),
// BENCH_DATABASE_URL (an existing server instead of an embedded one).
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createChannelInstance, createContact, createSetor, CreateContract, ensureFunnel, ReadOpportunities, SendContract, type OpportunityFilter } from '@carteiro/core';
import { ChannelSimulator } from '@carteiro/channels';
import { KyselyChannelSimulatorStore, KyselyUnitOfWork } from '@carteiro/postgres';
import { ConfiguredSigningProviders, PdfkitContractRenderer, SimulatorSigningProvider } from '@carteiro/signing';
import { sql } from 'kysely';
import { benchSection, runWhenMain, type SummaryRow } from './support/report.js';
import { startCompanyDatabase } from './support/company-database.js';
import { env, latencies as stats, round, timed, type QueryLatency } from './support/measure.js';

export interface CrmBenchResult {
  opportunities: number;
  seedSeconds: number;
  list: QueryLatency;
  count: QueryLatency;
  filtered: QueryLatency;
  send: { sends: number; medianMs: number; p95Ms: number; pages: number };
}

/** Targets of issue 15. */
export const CRM_TARGETS = { listP99Ms: 20, countP99Ms: 20, sendMedianMs: 1_000 };

export async function runCrmBench(log: (line: string) => void = console.log): Promise<CrmBenchResult> {
  const total = env('BENCH_OPPORTUNITIES', 100_000);
  const queries = env('BENCH_CRM_QUERIES', 300);
  const sends = env('BENCH_CONTRACT_SENDS', 30);

  const { db, clock, ids, repos, company, close } = await startCompanyDatabase('crm', { name: 'Bench Serviços', planCode: 'pro' });
  try {
    const uow = new KyselyUnitOfWork(db);
    const stages = await uow.transaction((tx) => ensureFunnel(tx, company.id, ids, clock.now()));

    // Seed: 1,000 contacts, then the opportunities in one statement (80 % open over the four open stages, 10 % won,
    // 10 % lost; a third assigned; values from R$ 10 to R$ 100,000), then VACUUM ANALYZE.
    const seedStarted = performance.now();
    await sql`
      INSERT INTO contacts (id, company_id, phone, phone_key, name, created_at, updated_at)
      SELECT gen_random_uuid(), ${company.id}::uuid, '+55119' || lpad(n::text, 8, '0'), '55119' || lpad(n::text, 8, '0'), 'Cliente ' || n, now(), now()
      FROM generate_series(1, 1000) AS n`.execute(db);
    const open = stages.filter((s) => !s.isWon && !s.isLost).map((s) => s.id);
    const won = stages.find((s) => s.isWon)!.id;
    const lost = stages.find((s) => s.isLost)!.id;
    await sql`
      WITH clients AS (SELECT array_agg(id) AS ids FROM contacts WHERE company_id = ${company.id}::uuid)
      INSERT INTO crm_opportunities (id, company_id, title, value_cents, products_total_cents, status, stage_id, client_id, assignee_id,
        ticket_id, description, expected_close_date, lost_reason, closed_at, products, deleted_at, created_at, updated_at)
      SELECT gen_random_uuid(), ${company.id}::uuid, 'Oportunidade ' || n,
        CASE WHEN n % 4 = 0 THEN NULL ELSE 1000 + (n * 7919) % 9999000 END, (n * 104729) % 500000,
        CASE WHEN n % 10 = 0 THEN 'won' WHEN n % 10 = 1 THEN 'lost' ELSE 'open' END,
        CASE WHEN n % 10 = 0 THEN ${won}::uuid WHEN n % 10 = 1 THEN ${lost}::uuid ELSE (${open}::uuid[])[(1 + n % ${open.length})::int] END,
        clients.ids[(1 + n % 1000)::int],
        CASE WHEN n % 3 = 0 THEN '11111111-1111-4111-8111-111111111111'::uuid ELSE NULL END,
        NULL, NULL, NULL, NULL, CASE WHEN n % 10 IN (0, 1) THEN now() ELSE NULL END, '[]'::jsonb, NULL,
        now() - (n || ' seconds')::interval, now()
      FROM generate_series(1::bigint, ${total}::bigint) AS n, clients`.execute(db);
    // The steady state autovacuum keeps: visibility map set (index-only scans), statistics fresh.
    await sql`VACUUM ANALYZE`.execute(db);
    const seedSeconds = round((performance.now() - seedStarted) / 1000, 2);
    log(`crm: seeded ${total.toLocaleString('en-US')} opportunities in ${seedSeconds} s`);

    const read = new ReadOpportunities(repos);
    if (process.env.BENCH_EXPLAIN === '1') {
      for (const statement of [
        sql`EXPLAIN (ANALYZE, BUFFERS) SELECT * FROM crm_opportunities WHERE company_id = ${company.id}::uuid AND deleted_at IS NULL AND status = 'open' ORDER BY created_at DESC, id DESC LIMIT 20 OFFSET 40`,
        sql`EXPLAIN (ANALYZE, BUFFERS) SELECT count(*), coalesce(sum(effective_value_cents), 0) FROM crm_opportunities WHERE company_id = ${company.id}::uuid AND deleted_at IS NULL AND status = 'open'`,
      ]) {
        const plan = await statement.execute(db);
        log((plan.rows as { 'QUERY PLAN': string }[]).map((r) => r['QUERY PLAN']).join('\n'));
      }
    }
    const filters: OpportunityFilter[] = [
      { stageId: open[1] },
      { assigneeId: null },
      { assigneeId: '11111111-1111-4111-8111-111111111111', includeClosed: true },
      { status: 'won' },
      { q: 'Oportunidade 4242' },
    ];
    // Warm-up.
    await read.list(company.id, {}, { page: 1, limit: 20 });
    await read.count(company.id, {});
    const list = await timed(queries, (i) => read.list(company.id, {}, { page: 1 + (i % 5), limit: 20 }));
    const count = await timed(queries, () => read.count(company.id, {}));
    const filtered = await timed(queries, (i) => (i % 2 === 0 ? read.list(company.id, filters[i % filters.length]!, { page: 1, limit: 20 }) : read.count(company.id, filters[i % filters.length]!)));

    // Contract sends end to end: a connected setor on the channel simulator, the signing simulator, pdfkit.
    const setor = createSetor(ids.newId(), company.id, clock.now(), { nome: 'Vendas' });
    await repos.setores.insert(setor);
    await repos.channelInstances.insert({ ...createChannelInstance(ids.newId(), setor, clock.now()), status: 'connected', phoneNumber: '+5511900000001', connectedAt: clock.now() });
    const gateway = new ChannelSimulator(
      {
        clock,
        ids,
        random: { next: () => 0.99, bytes: (n) => new Uint8Array(randomBytes(n)) },
        store: new KyselyChannelSimulatorStore(db),
        windows: repos.conversationWindows,
      },
      { scanDelayMs: 0, testFailureRate: 0 },
    );
    const providers = new ConfiguredSigningProviders(new SimulatorSigningProvider(clock));
    const send = new SendContract(uow, gateway, new PdfkitContractRenderer(), providers, ids, clock);
    const create = new CreateContract(uow, ids, clock);
    const client = createContact(ids.newId(), company.id, '+5511987659999', 'Joana Conceição', clock.now());
    await repos.contacts.insert(client);
    const body = [
      '# Contrato de Prestação de Serviços',
      'Entre **{{empresa_nome}}** e {{cliente_nome}}, no valor de {{valor}}, em {{data}}.',
      ...Array.from({ length: 12 }, (_, i) => `## Cláusula ${i + 1}\n\nAs partes acordam as condições de execução, prazos, obrigações e garantias do serviço descrito.`),
    ].join('\n\n');
    let pages = 0;
    const sendTimes = await timed(sends, async () => {
      const draft = await create.execute(company.id, { title: 'Prestação de serviços', clientId: client.id, content: body, value: 123_456 });
      const { sent } = await send.execute({ companyId: company.id, contractId: draft.id, actorUserId: 'bench', mode: 'test' });
      pages = (await repos.contracts.findById(company.id, sent.id))?.document?.pages ?? 0;
    });

    const result: CrmBenchResult = {
      opportunities: total,
      seedSeconds,
      list: { queries, ...pick(stats(list)) },
      count: { queries, ...pick(stats(count)) },
      filtered: { queries, ...pick(stats(filtered)) },
      send: { sends, medianMs: stats(sendTimes).medianMs, p95Ms: stats(sendTimes).p95Ms, pages },
    };
    log(`crm: list median ${result.list.medianMs} ms, p99 ${result.list.p99Ms} ms; count median ${result.count.medianMs} ms, p99 ${result.count.p99Ms} ms`);
    log(`crm: filtered list/count median ${result.filtered.medianMs} ms, p99 ${result.filtered.p99Ms} ms`);
    log(`crm: contract send end to end median ${result.send.medianMs} ms, p95 ${result.send.p95Ms} ms (${pages} pages)`);
    return result;
  } finally {
    await close();
  }
}

const pick = (s: { medianMs: number; p99Ms: number }) => ({ medianMs: s.medianMs, p99Ms: s.p99Ms });

/** The summary rows of this benchmark (bench/run.ts). */
export function crmRows(r: CrmBenchResult | undefined): SummaryRow[] {
  if (!r) return [];
  const n = r.opportunities.toLocaleString('en-US');
  return [
    {
      figure: `Opportunity list among ${n} opportunities (median / p99 of ${r.list.queries})`,
      result: `${r.list.medianMs} ms / ${r.list.p99Ms} ms`,
      baseline: `filtered list/count: ${r.filtered.medianMs} ms / ${r.filtered.p99Ms} ms`,
      target: `p99 < ${CRM_TARGETS.listP99Ms} ms`,
      ok: r.list.p99Ms < CRM_TARGETS.listP99Ms,
    },
    {
      figure: `Opportunity count with value_total among ${n} opportunities (median / p99 of ${r.count.queries})`,
      result: `${r.count.medianMs} ms / ${r.count.p99Ms} ms`,
      baseline: '',
      target: `p99 < ${CRM_TARGETS.countP99Ms} ms`,
      ok: r.count.p99Ms < CRM_TARGETS.countP99Ms,
    },
    {
      figure: `Contract send end to end through the simulators (median / p95 of ${r.send.sends})`,
      result: `${r.send.medianMs} ms / ${r.send.p95Ms} ms`,
      baseline: `${r.send.pages}-page PDF`,
      target: `median < ${CRM_TARGETS.sendMedianMs} ms`,
      ok: r.send.medianMs < CRM_TARGETS.sendMedianMs,
    },
  ];
}

/** Its section of docs/benchmarks.md. */
export function crmSection(r: CrmBenchResult | undefined, error?: string): string[] {
  return benchSection(
    'CRM and contracts',
    [
      '`bench/crm.bench.ts` (`runCrmBench()`; env `BENCH_OPPORTUNITIES` 100000, `BENCH_CRM_QUERIES` 300, `BENCH_CONTRACT_SENDS` 30).',
      'One embedded PostgreSQL, migrated; one company with its seeded funnel, 1,000 contacts and the opportunities by',
      '`generate_series` (80 % open, 10 % won, 10 % lost; then `VACUUM ANALYZE`, the state autovacuum keeps).',
      '',
      '- **List**: `ReadOpportunities.list` (the page of `GET /v1/crm/opportunities` with the default filter — open ones — its',
      '  total, the stages and the page\'s clients), pages 1-5 of 20.',
      '- **Count**: `ReadOpportunities.count` (`GET /v1/crm/opportunities/count`: count and `value_total`).',
      '- **Filtered**: list and count by stage, unassigned, one assignee with closed ones, won, and a title search.',
      '- **Contract send**: `CreateContract` then `SendContract` in process: draft → sending, a 12-clause PDF by pdfkit, the',
      '  signing simulator\'s envelope, the PDF and the link through the channel simulator (PostgreSQL outbox), sent +',
      '  `contract.sent`.',
    ],
    r
      ? [
          `| seed | ${r.opportunities.toLocaleString('en-US')} opportunities in ${r.seedSeconds} s |`,
          `| list, median / p99 | ${r.list.medianMs} ms / ${r.list.p99Ms} ms (target p99 < ${CRM_TARGETS.listP99Ms} ms) |`,
          `| count, median / p99 | ${r.count.medianMs} ms / ${r.count.p99Ms} ms (target p99 < ${CRM_TARGETS.countP99Ms} ms) |`,
          `| filtered list/count, median / p99 | ${r.filtered.medianMs} ms / ${r.filtered.p99Ms} ms |`,
          `| contract send, median / p95 | ${r.send.medianMs} ms / ${r.send.p95Ms} ms (target median < ${CRM_TARGETS.sendMedianMs} ms) |`,
        ]
      : null,
    error,
  );
}

runWhenMain(import.meta.url, runCrmBench);
