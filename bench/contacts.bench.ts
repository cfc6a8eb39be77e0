// Contacts benchmark: lookup by phone and `q` search among BENCH_CONTACTS (default 1,000,000) contacts of one
// company, a 10,000-row import end to end, and auto-tag rule evaluation with 100 enabled rules. Run:
//   node --import ./scripts/ts-loader/register.mjs bench/contacts.bench.ts
// Env: BENCH_CONTACTS (1000000), BENCH_LOOKUPS (1000), BENCH_SEARCHES (300), BENCH_IMPORT_ROWS (10000),
// BENCH_RULE_TEXTS (100000), BENCH_DATABASE_URL (an existing server instead of an embedded one).
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { CreateContactImport, matchingRules, RunContactImport, seededGenerator, type TagRule, type TagRuleMatchType } from '@carteiro/core';
import { KyselyUnitOfWork } from '@carteiro/postgres';
import { sql } from 'kysely';
import { startCompanyDatabase } from './support/company-database.js';
import { env, percentile, round } from './support/measure.js';

export interface ContactsBenchResult {
  contacts: number;
  seedSeconds: number;
  phone: { lookups: number; medianMs: number; p99Ms: number };
  search: { searches: number; medianMs: number; p99Ms: number };
  importRows: { rows: number; seconds: number; created: number };
  rules: { rules: number; texts: number; perSecond: number };
}

const FIRST = ['Ana', 'Bruno', 'Carla', 'Diego', 'Elisa', 'Fábio', 'Gabriela', 'Heitor', 'Íris', 'João', 'Karina', 'Lucas', 'Marina', 'Nuno', 'Otávio', 'Paula'];
const LAST = ['Silva', 'Souza', 'Oliveira', 'Santos', 'Lima', 'Pereira', 'Costa', 'Rodrigues', 'Almeida', 'Nascimento', 'Araújo', 'Ribeiro'];

export async function runContactsBench(log: (line: string) => void = console.log): Promise<ContactsBenchResult> {
  const total = env('BENCH_CONTACTS', 1_000_000);
  const lookups = env('BENCH_LOOKUPS', 1000);
  const searches = env('BENCH_SEARCHES', 300);
  const importRows = env('BENCH_IMPORT_ROWS', 10_000);
  const ruleTexts = env('BENCH_RULE_TEXTS', 100_000);

  const { db, clock, ids, repos, company, close } = await startCompanyDatabase('contacts', { name: 'Bench' });
  try {

    // Seed: the secondary indexes are dropped and rebuilt afterwards from their own definitions (building a GIN
    // index once is much faster than a million incremental inserts), then one statement per 100,000 contacts,
    // phones +55 11 9XXXX-XXXX numbered from 0.
    const seedStarted = performance.now();
    const secondary = await sql<{ indexname: string; indexdef: string }>`
      SELECT indexname, indexdef FROM pg_indexes
      WHERE tablename = 'contacts' AND indexname NOT IN ('contacts_pkey', 'contacts_company_id_phone_key_key')`.execute(db);
    for (const index of secondary.rows) await sql.raw(`DROP INDEX ${index.indexname}`).execute(db);
    for (let from = 0; from < total; from += 100_000) {
      const to = Math.min(total, from + 100_000) - 1;
      await sql`
        INSERT INTO contacts (id, company_id, phone, phone_key, name, email, created_at, updated_at)
        SELECT gen_random_uuid(), ${company.id}::uuid, '+55119' || lpad((90000000 + g)::text, 8, '0'), '+5511' || lpad((90000000 + g)::text, 8, '0'),
               (${FIRST}::text[])[1 + g % ${FIRST.length}] || ' ' || (${LAST}::text[])[1 + (g / 7) % ${LAST.length}] || ' ' || g,
               'c' || g || '@example.com', now() - (g || ' seconds')::interval, now()
        FROM generate_series(${from}::int, ${to}::int) AS g`.execute(db);
    }
    await db.connection().execute(async (conn) => {
      await sql`SET maintenance_work_mem = '256MB'`.execute(conn);
      for (const index of secondary.rows) await sql.raw(index.indexdef).execute(conn);
    });
    // A steady-state table: vacuumed (visibility map set) and analysed, so that autovacuum of the fresh rows does not run
    // during the measurements.
    await sql`VACUUM (ANALYZE) contacts`.execute(db);
    const seedSeconds = round((performance.now() - seedStarted) / 1000, 2);
    log(`seeded ${total.toLocaleString('en-US')} contacts in ${seedSeconds} s`);

    const random = seededGenerator(42);
    const page = { page: 1, limit: 20 };
    const time = async (n: number, run: (i: number) => Promise<unknown>) => {
      for (let i = 0; i < 20; i += 1) await run(i);
      const samples: number[] = [];
      for (let i = 0; i < n; i += 1) {
        const started = performance.now();
        await run(i);
        samples.push(performance.now() - started);
      }
      samples.sort((a, b) => a - b);
      return { medianMs: round(percentile(samples, 50), 2), p99Ms: round(percentile(samples, 99), 2) };
    };

    // GET /v1/contacts?phone=…: the route's query (search with a phone, in the form without the ninth digit half the time).
    const phone = await time(lookups, async (i) => {
      const g = Math.floor(random() * total);
      const number = i % 2 ? `+55119${90_000_000 + g}` : `+5511${90_000_000 + g}`;
      const found = await repos.contacts.search(company.id, { phone: number }, page, clock.now());
      if (found.total !== 1) throw new Error(`phone ${number} found ${found.total}`);
    });
    log(`lookup by phone (${lookups}): median ${phone.medianMs} ms, p99 ${phone.p99Ms} ms`);

    // GET /v1/contacts?q=…: a name with its number, part of an email, phone digits.
    const qKinds = ['name', 'email', 'digits'] as const;
    const byKind: Record<(typeof qKinds)[number], number[]> = { name: [], email: [], digits: [] };
    const search = await time(searches, async (i) => {
      const g = Math.floor(random() * total);
      const kind = qKinds[i % 3]!;
      const q = kind === 'name' ? `${LAST[Math.floor(g / 7) % LAST.length]} ${g}` : kind === 'email' ? `c${g}@exa` : `${90_000_000 + g}`;
      const started = performance.now();
      const found = await repos.contacts.search(company.id, { q }, page, clock.now());
      byKind[kind].push(performance.now() - started);
      if (found.items.length === 0) throw new Error(`q ${q} found nothing`);
    });
    const kindLine = qKinds.map((k) => `${k} p99 ${round(percentile(byKind[k].sort((a, b) => a - b), 99), 2)} ms`).join(', ');
    log(`q search (${searches}): median ${search.medianMs} ms, p99 ${search.p99Ms} ms (${kindLine})`);

    // POST /v1/imports to completed: the creation (checks, batches stored) and the job (20 batches of 500).
    // The job is run here in-process: the queue itself is not part of the figure.
    const uow = new KyselyUnitOfWork(db, () => ({ enqueue: async () => null }));
    const rows = Array.from({ length: importRows }, (_, i) => ({ phone: `+55219${(70_000_000 + i).toString()}`, name: `Importado ${i}`, email: `i${i}@example.com` }));
    const importStarted = performance.now();
    const job = await new CreateContactImport(uow, clock, ids).execute(company, { rows });
    const outcome = await new RunContactImport(uow, clock, ids, 30_000).execute(job.id);
    const importSeconds = round((performance.now() - importStarted) / 1000, 2);
    const done = await repos.contactImports.findById(company.id, job.id);
    if (outcome !== 'completed' || done?.created !== importRows) throw new Error(`import ended ${outcome} with ${done?.created} created`);
    log(`import of ${importRows} rows end to end: ${importSeconds} s`);

    // Rule evaluation: 100 enabled rules of every kind on inbound-like texts, as the inbound path runs them.
    const kinds: TagRuleMatchType[] = ['contains', 'contains', 'contains', 'starts_with', 'equals', 'regex'];
    const words = ['orçamento', 'preço', 'entrega', 'boleto', 'pix', 'cancelar', 'reclamação', 'agendar', 'horário', 'desconto', 'frete', 'garantia'];
    const t0 = new Date();
    const rules: TagRule[] = Array.from({ length: 100 }, (_, i) => {
      const matchType = kinds[i % kinds.length]!;
      const word = `${words[i % words.length]}${i >= words.length ? ` ${i}` : ''}`;
      return {
        id: `rule-${i}`,
        companyId: company.id,
        tagId: `tag-${i}`,
        matchType,
        matchValue: matchType === 'regex' ? `\\b${words[i % words.length]!.slice(0, 4)}\\w*\\s+(n[uú]mero|${i})\\b` : word,
        caseSensitive: i % 10 === 0,
        scope: 'contact',
        setorIds: i % 4 === 0 ? ['box-1'] : [],
        enabled: true,
        createdAt: t0,
        updatedAt: t0,
      };
    });
    const texts = Array.from({ length: 1000 }, (_, i) => {
      const parts = Array.from({ length: 3 + (i % 12) }, () => (random() < 0.3 ? words[Math.floor(random() * words.length)]! : FIRST[Math.floor(random() * FIRST.length)]!));
      return `Olá, ${parts.join(' ')} número ${i}?`;
    });
    let matched = 0;
    for (let i = 0; i < 2000; i += 1) matched += matchingRules(rules, texts[i % texts.length]!, 'box-1').length;
    const rulesStarted = performance.now();
    for (let i = 0; i < ruleTexts; i += 1) matched += matchingRules(rules, texts[i % texts.length]!, i % 2 ? 'box-1' : 'box-2').length;
    const ruleSeconds = (performance.now() - rulesStarted) / 1000;
    const perSecond = Math.round(ruleTexts / ruleSeconds);
    log(`rule evaluation, 100 enabled rules: ${perSecond.toLocaleString('en-US')} texts/s (${matched} matches)`);

    return {
      contacts: total,
      seedSeconds,
      phone: { lookups, ...phone },
      search: { searches, ...search },
      importRows: { rows: importRows, seconds: importSeconds, created: done.created },
      rules: { rules: rules.length, texts: ruleTexts, perSecond },
    };
  } finally {
    await close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  await runContactsBench();
}
