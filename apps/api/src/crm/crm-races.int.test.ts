import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sql } from 'kysely';
import request from 'supertest';
import { concurrently, countOf, expectOneIdempotentEffect, sortedStatuses, unthrottledTenant } from '../testing/races.js';
import { createTestApi, type TestApi, type TestTenant } from '../testing/test-api.js';

/**
 * Concurrent CRM writes (business.md §3: idempotent creation, moves under the row lock, unique product names and sku,
 * one funnel whose positions stay unique): one effect, the documented answers for the others, no 500.
 */
let api: TestApi;
beforeAll(async () => {
  api = await createTestApi();
});
afterAll(() => api.close());

let phoneSeq = 0;
const nextPhone = () => `+5511975${String(++phoneSeq).padStart(6, '0')}`;
const tenant = () => unthrottledTenant(api);

async function stages(t: TestTenant) {
  const list = (await request(api.app).get('/v1/crm/stages').set(t.auth)).body.data as { id: string; is_won: boolean; is_lost: boolean; position: number }[];
  return { won: list.find((s) => s.is_won)!, lost: list.find((s) => s.is_lost)!, open: list.filter((s) => !s.is_won && !s.is_lost) };
}

const createOpportunity = async (t: TestTenant, body: Record<string, unknown> = {}) => {
  const res = await request(api.app).post('/v1/crm/opportunities').set(t.auth).send({ title: 'Venda', phone: nextPhone(), name: 'Ana', ...body });
  expect(res.status).toBe(201);
  return res.body.data as { id: string };
};

describe('CRM under concurrent writes', () => {
  it('fifteen creations with one Idempotency-Key: one opportunity, one event; the others replay it or answer 409 IDEMPOTENCY_KEY_IN_USE', async () => {
    const t = await tenant();
    const body = { title: 'Site', phone: nextPhone(), name: 'Ana', value: 4500 };
    const answers = await concurrently(15, () => request(api.app).post('/v1/crm/opportunities').set(t.auth).set('Idempotency-Key', 'op-1').send(body));
    expectOneIdempotentEffect(answers, 201);
    expect(await countOf(api, sql`SELECT count(*) AS n FROM crm_opportunities WHERE company_id = ${t.company.id}`)).toBe(1);
    expect(await countOf(api, sql`SELECT count(*) AS n FROM domain_events WHERE company_id = ${t.company.id} AND event = 'opportunity.created'`)).toBe(1);
  });

  it('fifteen creations of one new phone without a key: fifteen opportunities of one contact', async () => {
    const t = await tenant();
    const phone = nextPhone();
    const answers = await concurrently(15, (i) => request(api.app).post('/v1/crm/opportunities').set(t.auth).send({ title: `Venda ${i}`, phone, name: 'Ana' }));
    expect(sortedStatuses(answers)).toEqual(Array<number>(15).fill(201));
    expect(new Set(answers.map((a) => a.body.data.client.id)).size).toBe(1);
    expect(await countOf(api, sql`SELECT count(*) AS n FROM contacts WHERE company_id = ${t.company.id}`)).toBe(1);
  });

  it('fifteen moves to the won stage: one won with one opportunity.won, fourteen 409 INVALID_TRANSITION', async () => {
    const t = await tenant();
    const { won } = await stages(t);
    const opportunity = await createOpportunity(t);
    const answers = await concurrently(15, () => request(api.app).post(`/v1/crm/opportunities/${opportunity.id}/move-stage`).set(t.auth).send({ stage_id: won.id }));
    expect(sortedStatuses(answers)).toEqual([200, ...Array<number>(14).fill(409)]);
    expect(answers.find((a) => a.status === 200)!.body.data.result).toBe('won');
    for (const a of answers.filter((x) => x.status === 409)) expect(a.body.error.code).toBe('INVALID_TRANSITION');
    expect(await countOf(api, sql`SELECT count(*) AS n FROM domain_events WHERE company_id = ${t.company.id} AND event = 'opportunity.won'`)).toBe(1);
  });

  it('won and lost moves at once: the final status matches the last move, one event per close', async () => {
    const t = await tenant();
    const { won, lost } = await stages(t);
    const opportunity = await createOpportunity(t);
    const answers = await concurrently(16, (i) =>
      request(api.app).post(`/v1/crm/opportunities/${opportunity.id}/move-stage`).set(t.auth).send(i % 2 ? { stage_id: won.id } : { stage_id: lost.id, lost_reason: 'Preço' }),
    );
    for (const a of answers) expect([200, 409]).toContain(a.status);
    const results = answers.filter((a) => a.status === 200).map((a) => a.body.data.result as string);
    const detail = (await request(api.app).get(`/v1/crm/opportunities/${opportunity.id}`).set(t.auth)).body.data;
    const row = await sql<{ stage_id: string; status: string }>`SELECT stage_id, status FROM crm_opportunities WHERE id = ${opportunity.id}`.execute(api.database.db);
    expect(row.rows[0]!.status).toBe(row.rows[0]!.stage_id === won.id ? 'won' : 'lost');
    expect(detail.status).toBe(row.rows[0]!.status);
    const events = await countOf(api, sql`SELECT count(*) AS n FROM domain_events WHERE company_id = ${t.company.id} AND event IN ('opportunity.won', 'opportunity.lost')`);
    expect(events).toBe(results.length);
  });

  it('fifteen product-line replacements at once: the total is the sum of the lines that stayed, never a mix', async () => {
    const t = await tenant();
    const products = await concurrently(3, async (i) => {
      const res = await request(api.app).post('/v1/crm/products').set(t.auth).send({ name: `Produto ${i}`, price: 10 * (i + 1) });
      expect(res.status).toBe(201);
      return res.body.data.id as string;
    });
    const opportunity = await createOpportunity(t);
    const answers = await concurrently(15, (i) =>
      request(api.app)
        .patch(`/v1/crm/opportunities/${opportunity.id}`)
        .set(t.auth)
        .send({ products: [{ product_id: products[i % 3]!, quantity: i + 1 }, { product_id: products[(i + 1) % 3]!, quantity: 1 }] }),
    );
    expect(sortedStatuses(answers)).toEqual(Array<number>(15).fill(200));
    const detail = (await request(api.app).get(`/v1/crm/opportunities/${opportunity.id}`).set(t.auth)).body.data;
    expect(detail.products).toHaveLength(2);
    const sum = (detail.products as { quantity: number; unit_price: number; discount_percent: number }[]).reduce((s, p) => s + p.quantity * p.unit_price * (1 - p.discount_percent / 100), 0);
    expect(detail.products_total).toBeCloseTo(sum, 2);
  });

  it('fifteen products with one name (any case) or one sku: one 201 each, the others 409 CONFLICT', async () => {
    const t = await tenant();
    const byName = await concurrently(15, (i) => request(api.app).post('/v1/crm/products').set(t.auth).send({ name: i % 2 ? 'Plano Ouro' : 'plano ouro', price: 100 }));
    expect(sortedStatuses(byName)).toEqual([201, ...Array<number>(14).fill(409)]);
    const bySku = await concurrently(15, (i) => request(api.app).post('/v1/crm/products').set(t.auth).send({ name: `Item ${i}`, sku: 'SKU-1', price: 1 }));
    expect(sortedStatuses(bySku)).toEqual([201, ...Array<number>(14).fill(409)]);
    for (const a of [...byName, ...bySku].filter((x) => x.status === 409)) expect(a.body.error.code).toBe('CONFLICT');
    expect(await countOf(api, sql`SELECT count(*) AS n FROM crm_products WHERE company_id = ${t.company.id}`)).toBe(2);
  });

  it('ten stages created at once by the operator: every answer 201 or 409, positions stay unique and contiguous', async () => {
    const t = await tenant();
    const answers = await concurrently(10, (i) =>
      request(api.app).post(`/admin/v1/companies/${t.company.id}/crm/stages`).set(api.adminAuth).send({ name: `Etapa ${i}`, position: 2 }),
    );
    for (const a of answers) expect([201, 409]).toContain(a.status);
    const rows = await sql<{ position: number }>`SELECT position FROM crm_stages WHERE company_id = ${t.company.id} ORDER BY position`.execute(api.database.db);
    expect(rows.rows.map((r) => r.position)).toEqual(rows.rows.map((_, i) => i + 1));
    expect(rows.rows).toHaveLength(6 + answers.filter((a) => a.status === 201).length);
  });

  it('a stage deleted while opportunities move into it or are created in it: 200/201 or 404/409, never a 500 or an opportunity in a missing stage', async () => {
    const t = await tenant();
    const opportunities = await Promise.all(Array.from({ length: 5 }, () => createOpportunity(t)));
    for (let round = 0; round < 4; round += 1) {
      const stage = await request(api.app).post(`/admin/v1/companies/${t.company.id}/crm/stages`).set(api.adminAuth).send({ name: `Extra ${round}`, position: 2 });
      expect(stage.status).toBe(201);
      const stageId = stage.body.data.id as string;
      const answers = await Promise.all([
        ...opportunities.slice(0, 3).map((o) => request(api.app).post(`/v1/crm/opportunities/${o.id}/move-stage`).set(t.auth).send({ stage_id: stageId })),
        request(api.app).delete(`/admin/v1/crm/stages/${stageId}`).set(api.adminAuth),
        ...opportunities.slice(3).map((o) => request(api.app).post(`/v1/crm/opportunities/${o.id}/move-stage`).set(t.auth).send({ stage_id: stageId })),
        request(api.app).post('/v1/crm/opportunities').set(t.auth).send({ title: 'Nova', phone: nextPhone(), name: 'Bia', stage_id: stageId }),
      ]);
      for (const a of answers) expect([200, 201, 404, 409, 422]).toContain(a.status);
      const stageLeft = await countOf(api, sql`SELECT count(*) AS n FROM crm_stages WHERE id = ${stageId}`);
      const inStage = await countOf(api, sql`SELECT count(*) AS n FROM crm_opportunities WHERE stage_id = ${stageId}`);
      // Deleted (and nothing in it) or kept because something moved in first (the delete answered 409 stage_in_use).
      expect(stageLeft === 0 ? inStage : 1).toBe(stageLeft === 0 ? 0 : 1);
      expect(answers[3]!.status === 200).toBe(stageLeft === 0);
      // Put the moved ones back so the next round starts from an open stage.
      const { open } = await stages(t);
      for (const o of opportunities) await request(api.app).post(`/v1/crm/opportunities/${o.id}/move-stage`).set(t.auth).send({ stage_id: open[0]!.id });
      if (stageLeft === 1) {
        await sql`DELETE FROM crm_opportunities WHERE stage_id = ${stageId}`.execute(api.database.db);
      }
    }
  });

  it('a delete racing moves and edits: every answer 200, 404 or 409, and a deleted opportunity is not reopened', async () => {
    const t = await tenant();
    const { open, won } = await stages(t);
    const opportunity = await createOpportunity(t);
    const answers = await Promise.all([
      ...Array.from({ length: 5 }, (_, i) => request(api.app).post(`/v1/crm/opportunities/${opportunity.id}/move-stage`).set(t.auth).send({ stage_id: (i % 2 ? won : open[1]!).id })),
      request(api.app).delete(`/v1/crm/opportunities/${opportunity.id}`).set(t.auth),
      ...Array.from({ length: 5 }, (_, i) => request(api.app).patch(`/v1/crm/opportunities/${opportunity.id}`).set(t.auth).send({ title: `Novo ${i}` })),
    ]);
    for (const a of answers) expect([200, 404, 409]).toContain(a.status);
    expect((await request(api.app).get(`/v1/crm/opportunities/${opportunity.id}`).set(t.auth)).status).toBe(404);
  });
});
