import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { ActiveTicketStatuses, createCompany, createSetor } from '@carteiro/core';
import { sql } from 'kysely';
import { kyselyRepositories } from '../kysely-unit-of-work.js';
import { createTestDatabase, type TestDatabase } from '../testing/test-database.js';

/**
 * The ticket list is a named prepared statement (db.ts): PostgreSQL plans it once for the connection (a generic plan)
 * only when that plan does not look dearer than planning each call's values. With the page's LIMIT sent as a parameter
 * the generic plan had to guess it (a tenth of the rows) and every call was planned again; the LIMIT is now part of the
 * text. One connection, so that pg_prepared_statements (per session) sees every call.
 */
describe('ticket list: planned once per connection', () => {
  let database: TestDatabase;
  const T0 = new Date('2026-01-05T12:00:00.000Z');

  beforeAll(async () => {
    database = await createTestDatabase({ poolSize: 1 });
  });
  afterAll(async () => database?.destroy());

  it('the first page and the queue take a generic plan after the first calls; pages are unchanged', async () => {
    const repos = kyselyRepositories(database.db);
    const company = createCompany(randomUUID(), T0, { name: 'Plans' });
    await repos.companies.insert(company);
    const setor = createSetor(randomUUID(), company.id, T0, { nome: 'Vendas' });
    await repos.setores.insert(setor);
    // Enough active tickets that a guessed LIMIT (a tenth of the rows) is far from a page: 4,000 contacts with a
    // conversation and a ticket each, every fourth closed, activity a minute apart.
    await sql`
      INSERT INTO contacts (id, company_id, phone, phone_key, name, created_at, updated_at)
      SELECT md5('c' || g)::uuid, ${company.id}::uuid, '+55119' || (70000000 + g), '+5511' || (70000000 + g), 'Contato ' || g, ${T0}, ${T0}
      FROM generate_series(1, 4000) AS g`.execute(database.db);
    await sql`
      INSERT INTO conversations (id, company_id, setor_id, contact_id, created_at, updated_at)
      SELECT md5('v' || g)::uuid, ${company.id}::uuid, ${setor.id}::uuid, md5('c' || g)::uuid, ${T0}, ${T0}
      FROM generate_series(1, 4000) AS g`.execute(database.db);
    await sql`
      INSERT INTO tickets (id, company_id, number, status, priority_rank, setor_id, contact_id, conversation_id, waiting_since,
                           last_activity_at, source, closed_at, rating_status, version, created_at, updated_at)
      SELECT md5('t' || g)::uuid, ${company.id}::uuid, g, CASE WHEN g % 4 = 0 THEN 'closed' ELSE 'open' END, 4, ${setor.id}::uuid,
             md5('c' || g)::uuid, md5('v' || g)::uuid, CASE WHEN g % 4 <> 0 THEN at END, at, 'api', CASE WHEN g % 4 = 0 THEN at END,
             'none', 1, at, at
      FROM generate_series(1, 4000) AS g, LATERAL (SELECT ${T0}::timestamptz + g * interval '1 minute' AS at) AS a`.execute(database.db);
    // Statistics as a deployment has them (autovacuum would analyse at a time of its own choosing).
    await sql`ANALYZE tickets`.execute(database.db);
    await sql`ANALYZE ticket_tags`.execute(database.db);

    const filter = { statuses: ActiveTicketStatuses };
    const pages: string[][] = [];
    for (let call = 0; call < 10; call += 1) {
      const page = await repos.tickets.list(company.id, filter, { sort: 'last_activity_desc', after: null, limit: 25 });
      pages.push(page.items.map((t) => t.id));
      expect(page.hasMore).toBe(true);
      // The route's form: the same page with its contacts and setores joined.
      const withParts = await repos.tickets.list(company.id, filter, { sort: 'last_activity_desc', after: null, limit: 25, withViewParts: true });
      expect(withParts.items.map((t) => t.id)).toEqual(pages.at(-1));
      await repos.tickets.queue(company.id, {}, null, 25);
    }
    // The same 25 newest active tickets every time: numbers 3999, 3998, 3997, 3995, ... (every fourth is closed).
    const newest = Array.from({ length: 4000 }, (_, i) => 4000 - i).filter((n) => n % 4 !== 0).slice(0, 25);
    const { rows: byNumber } = await sql<{ id: string; number: string }>`SELECT id, number FROM tickets WHERE company_id = ${company.id}::uuid`.execute(database.db);
    const numberOf = new Map(byNumber.map((r) => [r.id, Number(r.number)]));
    for (const page of pages) expect(page.map((id) => numberOf.get(id))).toEqual(newest);

    const { rows } = await sql<{ statement: string; generic_plans: string; custom_plans: string }>`
      SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements WHERE statement LIKE '%from "tickets" as "t"%'`.execute(database.db);
    const joined = (r: { statement: string }) => /left join "contacts"/.test(r.statement);
    const list = rows.filter((r) => /order by "t"\."last_activity_at" desc/.test(r.statement) && !joined(r));
    const listWithParts = rows.filter((r) => /order by "t"\."last_activity_at" desc/.test(r.statement) && joined(r));
    const queue = rows.filter((r) => /order by "t"\."priority_rank"/.test(r.statement));
    expect([list.length, queue.length]).toEqual([1, 1]);
    expect(listWithParts).toHaveLength(1);
    // PostgreSQL plans the first five calls for their values, then compares: a generic plan from then on.
    for (const r of [...list, ...listWithParts, ...queue]) expect({ generic: Number(r.generic_plans), custom: Number(r.custom_plans) }).toEqual({ generic: 5, custom: 5 });
  });
});
