// Leads and reports benchmark: CNAE and municipality autocomplete in process, and the summary report
// (GET /v1/reports/summary's SQL) over one company with BENCH_REPORT_MESSAGES (1,000,000) messages over a year and
// BENCH_REPORT_CAMPAIGNS (10,000) campaigns. Run:
//   node --import ./scripts/ts-loader/register.mjs bench/leads.bench.ts
// Env: BENCH_REPORT_MESSAGES (1000000), BENCH_REPORT_CAMPAIGNS (10000), BENCH_AUTOCOMPLETE_QUERIES (5000),
// BENCH_REPORT_QUERIES (100), BENCH_DATABASE_URL (an existing server instead of an embedded one).
import { performance } from 'node:perf_hooks';
import { createSetor, GetSummaryReport, searchCnaes, searchMunicipios } from '@carteiro/core';
import { KyselyReportQueries } from '@carteiro/postgres';
import { sql } from 'kysely';
import { benchSection, runWhenMain, type SummaryRow } from './support/report.js';
import { startCompanyDatabase } from './support/company-database.js';
import { env, latencies as stats, round, timed, type QueryLatency } from './support/measure.js';

export interface LeadsBenchResult {
  autocomplete: QueryLatency;
  report: { messages: number; campaigns: number; seedSeconds: number; queries: number; medianMs: number; p95Ms: number; yearMedianMs: number; yearP95Ms: number };
}

/** Targets of issue 16. */
export const LEADS_TARGETS = { autocompleteP99Ms: 5, reportP95Ms: 200 };

/** What people type: code prefixes (with and without the mask), words with and without accents, partial words. */
const CNAE_QUERIES = ['62', '6201', '6201-5', '4721-1/02', '56', 'padaria', 'restaurante', 'comércio varejista', 'comercio var', 'fabricação', 'servicos de', 'cabeleireiro', 'odonto', 'transporte rodoviário', 'consultoria', 'ensino', 'construção de edifícios', 'ab', 'lanchonete', 'academia'];
const MUNICIPIO_QUERIES: [string, string | undefined][] = [['sao paulo', undefined], ['são', 'SP'], ['rio', undefined], ['belo horizonte', undefined], ['3550', undefined], ['campinas', 'SP'], ['santa', 'SC'], ['porto', undefined], ['', 'AC'], ['manaus', 'AM']];

export async function runLeadsBench(log: (line: string) => void = console.log): Promise<LeadsBenchResult> {
  const messages = env('BENCH_REPORT_MESSAGES', 1_000_000);
  const campaigns = env('BENCH_REPORT_CAMPAIGNS', 10_000);
  const acQueries = env('BENCH_AUTOCOMPLETE_QUERIES', 5_000);
  const reportQueries = env('BENCH_REPORT_QUERIES', 100);

  // Autocomplete: the first call builds the indexes (once per process); the figure is the steady state.
  searchCnaes('padaria', 10);
  searchMunicipios('sao', undefined, 10);
  const ac = await timed(acQueries, (i) =>
    i % 2 === 0 ? searchCnaes(CNAE_QUERIES[(i / 2) % CNAE_QUERIES.length]!, 20) : searchMunicipios(...MUNICIPIO_QUERIES[((i - 1) / 2) % MUNICIPIO_QUERIES.length]!, 30),
  );
  const acStats = stats(ac);
  log(`leads: autocomplete median ${acStats.medianMs} ms, p99 ${acStats.p99Ms} ms over ${acQueries} queries`);

  const { db, clock, ids, repos, company, close } = await startCompanyDatabase('leads', { name: 'Bench Relatórios', planCode: 'pro' });
  try {
    const setor = createSetor(ids.newId(), company.id, clock.now(), { nome: 'Vendas' });
    await repos.setores.insert(setor);

    // Seed over the last 365 days: 1,000 contacts with a conversation each, the messages (92 % sent, 5 % failed, 3 % pending),
    // a conversation.created and 30 message.received events per conversation, the campaigns, then VACUUM ANALYZE.
    const seedStarted = performance.now();
    await sql`
      INSERT INTO contacts (id, company_id, phone, phone_key, name, created_at, updated_at)
      SELECT gen_random_uuid(), ${company.id}::uuid, '+55119' || lpad(n::text, 8, '0'), '55119' || lpad(n::text, 8, '0'), 'Cliente ' || n, now(), now()
      FROM generate_series(1, 1000) AS n`.execute(db);
    await sql`
      INSERT INTO conversations (id, company_id, setor_id, contact_id, created_at, updated_at)
      SELECT gen_random_uuid(), company_id, ${setor.id}::uuid, id, now() - ((row_number() OVER ()) * 8 || ' hours')::interval, now()
      FROM contacts WHERE company_id = ${company.id}::uuid`.execute(db);
    await sql`
      WITH conv AS (SELECT array_agg(id) AS ids, array_agg(contact_id) AS contacts FROM conversations WHERE company_id = ${company.id}::uuid)
      INSERT INTO messages (id, company_id, conversation_id, setor_id, contact_id, phone, key_mode, content, parts, status, created_at, updated_at)
      SELECT gen_random_uuid(), ${company.id}::uuid, conv.ids[1 + n % 1000], ${setor.id}::uuid, conv.contacts[1 + n % 1000], '+5511900000000', 'live',
        '{"text":"Olá"}'::jsonb, '[]'::jsonb,
        CASE WHEN n % 100 < 92 THEN 'sent' WHEN n % 100 < 97 THEN 'failed' ELSE 'pending' END,
        now() - ((n::double precision / ${messages}) * interval '365 days'), now()
      FROM generate_series(1::bigint, ${messages}::bigint) AS n, conv`.execute(db);
    await sql`
      INSERT INTO domain_events (id, event, company_id, setor_id, occurred_at, data, actor)
      SELECT gen_random_uuid(), 'conversation.created', company_id, setor_id, created_at - interval '1 minute',
        jsonb_build_object('conversationId', id, 'contactId', contact_id, 'setorId', setor_id), '{"user_id":null,"source":"system"}'::jsonb
      FROM conversations WHERE company_id = ${company.id}::uuid`.execute(db);
    await sql`
      INSERT INTO domain_events (id, event, company_id, setor_id, occurred_at, data, actor)
      SELECT gen_random_uuid(), 'message.received', ${company.id}::uuid, ${setor.id}::uuid, now() - ((n::double precision / 30000) * interval '365 days'),
        '{}'::jsonb, '{"user_id":null,"source":"system"}'::jsonb
      FROM generate_series(1, 30000) AS n`.execute(db);
    await sql`
      INSERT INTO campaigns (id, company_id, mode, name, status, content, anti_ban_level, distribution, distribution_mode, setor_ids, execution_mode,
        total, enviados, falhas, pulados, created_at, updated_at)
      SELECT gen_random_uuid(), ${company.id}::uuid, 'live', 'Campanha ' || n, CASE WHEN n % 10 = 0 THEN 'falha' ELSE 'concluido' END, '{}'::jsonb,
        'medium', 'single', 'round_robin', ARRAY[${setor.id}::uuid], 'immediate', 100, 90, 6, 4,
        now() - ((n::double precision / ${campaigns}) * interval '365 days'), now()
      FROM generate_series(1, ${campaigns}) AS n`.execute(db);
    await sql`VACUUM ANALYZE`.execute(db);
    const seedSeconds = round((performance.now() - seedStarted) / 1000, 2);
    log(`leads: seeded ${messages.toLocaleString('en-US')} messages and ${campaigns.toLocaleString('en-US')} campaigns in ${seedSeconds} s`);

    const report = new GetSummaryReport(new KyselyReportQueries(db), clock);
    await report.execute(company.id, {});
    const month = await timed(reportQueries, () => report.execute(company.id, {}));
    const yearFrom = new Date(Date.now() - 366 * 86_400_000);
    const year = await timed(Math.max(10, Math.floor(reportQueries / 5)), () => report.execute(company.id, { from: new Date(yearFrom.getTime() + 60_000) }));
    const m = stats(month);
    const y = stats(year);
    log(`leads: summary report (30 days) median ${m.medianMs} ms, p95 ${m.p95Ms} ms; whole year median ${y.medianMs} ms, p95 ${y.p95Ms} ms`);
    return {
      autocomplete: { queries: acQueries, medianMs: acStats.medianMs, p99Ms: acStats.p99Ms },
      report: { messages, campaigns, seedSeconds, queries: reportQueries, medianMs: m.medianMs, p95Ms: m.p95Ms, yearMedianMs: y.medianMs, yearP95Ms: y.p95Ms },
    };
  } finally {
    await close();
  }
}

/** The summary rows of this benchmark (bench/run.ts). */
export function leadsRows(r: LeadsBenchResult | undefined): SummaryRow[] {
  if (!r) return [];
  return [
    {
      figure: `CNAE and municipality autocomplete in process (median / p99 of ${r.autocomplete.queries})`,
      result: `${r.autocomplete.medianMs} ms / ${r.autocomplete.p99Ms} ms`,
      baseline: '',
      target: `p99 < ${LEADS_TARGETS.autocompleteP99Ms} ms`,
      ok: r.autocomplete.p99Ms < LEADS_TARGETS.autocompleteP99Ms,
    },
    {
      figure: `Summary report, default 30 days, company with ${r.report.messages.toLocaleString('en-US')} messages and ${r.report.campaigns.toLocaleString('en-US')} campaigns (median / p95 of ${r.report.queries})`,
      result: `${r.report.medianMs} ms / ${r.report.p95Ms} ms`,
      baseline: `whole year: ${r.report.yearMedianMs} ms / ${r.report.yearP95Ms} ms`,
      target: `p95 < ${LEADS_TARGETS.reportP95Ms} ms`,
      ok: r.report.p95Ms < LEADS_TARGETS.reportP95Ms,
    },
  ];
}

/** Its section of docs/benchmarks.md. */
export function leadsSection(r: LeadsBenchResult | undefined, error?: string): string[] {
  return benchSection(
    'Leads and reports',
    [
      '`bench/leads.bench.ts` (`runLeadsBench()`; env `BENCH_REPORT_MESSAGES` 1000000, `BENCH_REPORT_CAMPAIGNS` 10000,',
      '`BENCH_AUTOCOMPLETE_QUERIES` 5000, `BENCH_REPORT_QUERIES` 100).',
      '',
      '- **Autocomplete**: `searchCnaes` and `searchMunicipios` in process (what `GET /v1/leads/cnaes` and `/municipios` run),',
      '  alternating code prefixes, accented and unaccented words and partial words; the indexes are built on the first call.',
      '- **Summary report**: `GetSummaryReport` on `KyselyReportQueries` (one round trip of aggregates) over one company with',
      '  the messages spread over 365 days, 1,000 conversations, 30,000 inbound events and the campaigns (then `VACUUM',
      '  ANALYZE`); the default 30-day period, and the whole year for comparison.',
    ],
    r
      ? [
          `| autocomplete, median / p99 | ${r.autocomplete.medianMs} ms / ${r.autocomplete.p99Ms} ms (target p99 < ${LEADS_TARGETS.autocompleteP99Ms} ms) |`,
          `| seed | ${r.report.messages.toLocaleString('en-US')} messages, ${r.report.campaigns.toLocaleString('en-US')} campaigns in ${r.report.seedSeconds} s |`,
          `| summary report (30 days), median / p95 | ${r.report.medianMs} ms / ${r.report.p95Ms} ms (target p95 < ${LEADS_TARGETS.reportP95Ms} ms) |`,
          `| summary report (whole year), median / p95 | ${r.report.yearMedianMs} ms / ${r.report.yearP95Ms} ms |`,
        ]
      : null,
    error,
  );
}

runWhenMain(import.meta.url, runLeadsBench);
