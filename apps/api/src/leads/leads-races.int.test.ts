import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sql } from 'kysely';
import request from 'supertest';
import { countOf, unthrottledTenant } from '../testing/races.js';
import { createTestApi, type TestApi } from '../testing/test-api.js';

/**
 * Concurrent save-to-crm (business.md §5: upserts contacts by phone, fill-only, tags added, one transaction): one
 * contact per phone, one `created` per contact across the requests, no 500 — in whichever order the batches lock.
 */
let api: TestApi;
beforeAll(async () => {
  api = await createTestApi();
});
afterAll(() => api.close());

const tenant = () => unthrottledTenant(api);
const items = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => ({ cnpj: `112223330${String(from + i).padStart(5, '0')}`, name: `Empresa ${from + i}`, phone: `+5511973${String(500 + from + i).padStart(6, '0')}` }));

describe('save-to-crm under concurrent requests', () => {
  it('ten saves of the same twenty leads: twenty contacts, twenty created across the answers, the rest updated', async () => {
    const t = await tenant();
    const tag = (await request(api.app).post('/v1/tags').set(t.auth).send({ name: 'Leads' })).body.data.id as string;
    const answers = await Promise.all(Array.from({ length: 10 }, () => request(api.app).post('/v1/leads/save-to-crm').set(t.auth).send({ items: items(0, 20), tag_ids: [tag] })));
    expect(answers.map((a) => a.status)).toEqual(Array<number>(10).fill(200));
    expect(answers.reduce((n, a) => n + (a.body.data.created as number), 0)).toBe(20);
    expect(answers.reduce((n, a) => n + (a.body.data.created as number) + (a.body.data.updated as number), 0)).toBe(200);
    expect(await countOf(api, sql`SELECT count(*) AS n FROM contacts WHERE company_id = ${t.company.id}`)).toBe(20);
    expect(await countOf(api, sql`SELECT count(*) AS n FROM contact_tags WHERE tag_id = ${tag}`)).toBe(20);
  });

  it('overlapping batches in opposite orders: no deadlock answer, one contact per phone', async () => {
    const t = await tenant();
    const forward = items(100, 160);
    const backward = [...items(130, 190)].reverse();
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => request(api.app).post('/v1/leads/save-to-crm').set(t.auth).send({ items: i % 2 ? forward : backward })));
    expect(answers.map((a) => a.status)).toEqual(Array<number>(8).fill(200));
    expect(await countOf(api, sql`SELECT count(*) AS n FROM contacts WHERE company_id = ${t.company.id}`)).toBe(90);
    expect(answers.reduce((n, a) => n + (a.body.data.created as number), 0)).toBe(90);
  });
});
