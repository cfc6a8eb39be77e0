import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sql } from 'kysely';
import request from 'supertest';
import { concurrently, expectOneIdempotentEffect, sortedStatuses, unthrottledTenant } from '../testing/races.js';
import { createTestApi, type TestApi, type TestTenant } from '../testing/test-api.js';

/**
 * Concurrent writes of the tags, rules and custom fields (conversations.md §5, "Per company: 1,000 tags, 100 rules,
 * 100 fields"): each race is decided in PostgreSQL, so exactly one effect, the documented answer for the others, no 500.
 */
describe('contacts area under concurrent writes', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await createTestApi();
  });
  afterAll(() => api.close());
  const tagCount = async (companyId: string) =>
    Number((await sql<{ n: string }>`SELECT count(*) AS n FROM tags WHERE company_id = ${companyId}`.execute(api.database.db)).rows[0]!.n);

  /** `n` tags of the company written straight to the table (a company near its limit without 995 requests). */
  const seedTags = (companyId: string, n: number) =>
    sql`INSERT INTO tags (id, company_id, name, created_at, updated_at)
        SELECT gen_random_uuid(), ${companyId}, 'seed-' || i, now(), now() FROM generate_series(1, ${n}) AS i`.execute(api.database.db);

  it('fifteen creations of one tag name (any case): one 201, fourteen 409 CONFLICT naming it, one row', async () => {
    const t: TestTenant = await unthrottledTenant(api);
    const answers = await concurrently(15, (i) => request(api.app).post('/v1/tags').set(t.auth).send({ name: i % 2 ? 'Cliente VIP' : 'cliente vip' }));
    expect(sortedStatuses(answers)).toEqual([201, ...Array<number>(14).fill(409)]);
    const created = answers.find((a) => a.status === 201)!.body.data;
    for (const a of answers.filter((x) => x.status === 409)) expect([a.body.error.code, a.body.error.details.tag_id]).toEqual(['CONFLICT', created.id]);
    expect(await tagCount(t.company.id)).toBe(1);
  });

  it('fifteen creations of distinct tags at 995 of 1,000: five are created, ten answer 422, never more than 1,000', async () => {
    const t = await unthrottledTenant(api);
    await seedTags(t.company.id, 995);
    const answers = await concurrently(15, (i) => request(api.app).post('/v1/tags').set(t.auth).send({ name: `novo-${i}` }));
    expect(sortedStatuses(answers)).toEqual([...Array<number>(5).fill(201), ...Array<number>(10).fill(422)]);
    for (const a of answers.filter((x) => x.status === 422)) expect(a.body.error).toMatchObject({ code: 'UNPROCESSABLE', details: { limit: 1000 } });
    expect(await tagCount(t.company.id)).toBe(1000);
  });

  it('fifteen tag renames to one name: one wins, the others answer 409, the names stay unique', async () => {
    const t = await unthrottledTenant(api);
    const tags = await concurrently(15, async (i) => (await request(api.app).post('/v1/tags').set(t.auth).send({ name: `t${i}` })).body.data as { id: string });
    const answers = await concurrently(15, (i) => request(api.app).patch(`/v1/tags/${tags[i]!.id}`).set(t.auth).send({ name: 'Único' }));
    expect(sortedStatuses(answers)).toEqual([200, ...Array<number>(14).fill(409)]);
    const named = await sql<{ n: string }>`SELECT count(*) AS n FROM tags WHERE company_id = ${t.company.id} AND lower(name) = 'único'`.execute(api.database.db);
    expect(Number(named.rows[0]!.n)).toBe(1);
  });

  it('fifteen rule creations at 95 of 100: five are created, ten answer 422, never more than 100', async () => {
    const t = await unthrottledTenant(api);
    const tag = (await request(api.app).post('/v1/tags').set(t.auth).send({ name: 'Regras' })).body.data as { id: string };
    await sql`INSERT INTO tag_rules (id, company_id, tag_id, match_type, match_value, case_sensitive, scope, setor_ids, enabled, created_at, updated_at)
              SELECT gen_random_uuid(), ${t.company.id}, ${tag.id}, 'contains', 'v' || i, false, 'contact', '{}', true, now(), now()
              FROM generate_series(1, 95) AS i`.execute(api.database.db);
    const answers = await concurrently(15, (i) => request(api.app).post('/v1/tag-rules').set(t.auth).send({ tag_id: tag.id, match_type: 'contains', match_value: `novo ${i}` }));
    expect(sortedStatuses(answers)).toEqual([...Array<number>(5).fill(201), ...Array<number>(10).fill(422)]);
    const rules = await sql<{ n: string }>`SELECT count(*) AS n FROM tag_rules WHERE company_id = ${t.company.id}`.execute(api.database.db);
    expect(Number(rules.rows[0]!.n)).toBe(100);
  });

  it('edits of different fields of one rule at once: every change lands', async () => {
    const t = await unthrottledTenant(api);
    const tags = await concurrently(2, async (i) => (await request(api.app).post('/v1/tags').set(t.auth).send({ name: `Regra ${i}` })).body.data.id as string);
    for (let round = 0; round < 5; round += 1) {
      const rule = (await request(api.app).post('/v1/tag-rules').set(t.auth).send({ tag_id: tags[0], match_type: 'contains', match_value: `velho ${round}` })).body.data as { id: string };
      const patch = (body: Record<string, unknown>) => request(api.app).patch(`/v1/tag-rules/${rule.id}`).set(t.auth).send(body);
      const answers = await Promise.all([patch({ match_value: `novo ${round}` }), patch({ enabled: false }), patch({ tag_id: tags[1] }), patch({ scope: 'conversation' })]);
      expect(sortedStatuses(answers)).toEqual([200, 200, 200, 200]);
      const row = (await sql<{ match_value: string; enabled: boolean; tag_id: string; scope: string }>`
        SELECT match_value, enabled, tag_id, scope FROM tag_rules WHERE id = ${rule.id}`.execute(api.database.db)).rows[0]!;
      expect(row).toEqual({ match_value: `novo ${round}`, enabled: false, tag_id: tags[1], scope: 'conversation' });
    }
  });

  it('rules created while their tag is deleted: each is created before the delete (and goes with it) or answers 404; no rule outlives its tag', async () => {
    const t = await unthrottledTenant(api);
    const tag = (await request(api.app).post('/v1/tags').set(t.auth).send({ name: 'Efêmera' })).body.data as { id: string };
    const answers = await Promise.all([
      ...Array.from({ length: 10 }, (_, i) => request(api.app).post('/v1/tag-rules').set(t.auth).send({ tag_id: tag.id, match_type: 'contains', match_value: `x${i}` })),
      request(api.app).delete(`/v1/tags/${tag.id}`).set(t.auth),
    ]);
    for (const a of answers) expect([200, 201, 404]).toContain(a.status);
    const orphans = await sql<{ n: string }>`SELECT count(*) AS n FROM tag_rules WHERE tag_id = ${tag.id}`.execute(api.database.db);
    expect(Number(orphans.rows[0]!.n)).toBe(0);
  });

  it('contacts upserted with a tag while the tag is deleted: each answers 201/200 or 404, no link outlives the tag', async () => {
    const t = await unthrottledTenant(api);
    // Several rounds: the window between an upsert's read of the tag and its insert is short.
    for (let round = 0; round < 8; round += 1) {
      const tag = (await request(api.app).post('/v1/tags').set(t.auth).send({ name: `Passageira ${round}` })).body.data.id as string;
      const upsert = (i: number) => request(api.app).post('/v1/contacts').set(t.auth).send({ phone: `+5511976${String(round * 100 + i).padStart(5, '0')}`, tag_ids: [tag] });
      const answers = await Promise.all([...[0, 1, 2, 3, 4].map(upsert), request(api.app).delete(`/v1/tags/${tag}`).set(t.auth), ...[5, 6, 7, 8, 9].map(upsert)]);
      for (const a of answers) expect([200, 201, 404]).toContain(a.status);
      const links = await sql<{ n: string }>`SELECT count(*) AS n FROM contact_tags WHERE tag_id = ${tag}`.execute(api.database.db);
      expect(Number(links.rows[0]!.n)).toBe(0);
    }
  });

  it('fifteen definitions of one custom-field key: one 201, fourteen 409; at 95 of 100 fields fifteen keys make five', async () => {
    const t = await unthrottledTenant(api);
    const define = (key: string) =>
      request(api.app).post(`/admin/v1/companies/${t.company.id}/contact-fields`).set(api.adminAuth).send({ key, label: 'Plano', type: 'text' });
    const same = await concurrently(15, () => define('plano'));
    expect(sortedStatuses(same)).toEqual([201, ...Array<number>(14).fill(409)]);
    for (const a of same.filter((x) => x.status === 409)) expect(a.body.error.code).toBe('CONFLICT');

    await concurrently(94, (i) => define(`campo_${i}`));
    const fields = async () =>
      Number((await sql<{ n: string }>`SELECT count(*) AS n FROM contact_field_definitions WHERE company_id = ${t.company.id}`.execute(api.database.db)).rows[0]!.n);
    expect(await fields()).toBe(95);
    const answers = await concurrently(15, (i) => define(`extra_${i}`));
    expect(sortedStatuses(answers)).toEqual([...Array<number>(5).fill(201), ...Array<number>(10).fill(422)]);
    expect(await fields()).toBe(100);
  });

  it('two contacts merged into each other at once: one merge wins, the other answers 404, one contact remains', async () => {
    const t = await unthrottledTenant(api);
    for (let round = 0; round < 5; round += 1) {
      const create = async (phone: string) => (await request(api.app).post('/v1/contacts').set(t.auth).send({ phone, name: 'Ana' })).body.data.id as string;
      const [a, b] = [await create(`+55119765${String(round).padStart(5, '0')}`), await create(`+55119764${String(round).padStart(5, '0')}`)];
      const merge = (survivor: string, merged: string) => request(api.app).post(`/v1/contacts/${survivor}/merge`).set(t.auth).send({ merge_contact_id: merged });
      const answers = await Promise.all([merge(a, b), merge(b, a), merge(a, b)]);
      for (const x of answers) expect([200, 404]).toContain(x.status);
      expect(answers.filter((x) => x.status === 200)).toHaveLength(1);
      const left = await sql<{ n: string }>`SELECT count(*) AS n FROM contacts WHERE id IN (${a}, ${b})`.execute(api.database.db);
      expect(Number(left.rows[0]!.n)).toBe(1);
    }
  });

  it('a custom field deleted while contacts are written with its value: no value of a deleted field is left', async () => {
    const t = await unthrottledTenant(api);
    for (let round = 0; round < 4; round += 1) {
      const field = await request(api.app).post(`/admin/v1/companies/${t.company.id}/contact-fields`).set(api.adminAuth).send({ key: `temp_${round}`, label: 'Temp', type: 'text' });
      expect(field.status).toBe(201);
      const write = (i: number) => request(api.app).post('/v1/contacts').set(t.auth).send({ phone: `+55119763${String(round * 100 + i).padStart(5, '0')}`, custom_fields: { [`temp_${round}`]: 'x' } });
      const answers = await Promise.all([...[0, 1, 2, 3].map(write), request(api.app).delete(`/admin/v1/contact-fields/${field.body.data.id}`).set(api.adminAuth), ...[4, 5, 6, 7].map(write)]);
      for (const a of answers) expect([200, 201, 400]).toContain(a.status);
      const left = await sql<{ n: string }>`SELECT count(*) AS n FROM contacts WHERE company_id = ${t.company.id} AND custom_fields ? ${`temp_${round}`}`.execute(api.database.db);
      expect(Number(left.rows[0]!.n)).toBe(0);
    }
  });

  it('fifteen imports with one Idempotency-Key: one job; the others replay it or answer 409 IDEMPOTENCY_KEY_IN_USE', async () => {
    const t = await unthrottledTenant(api);
    const body = { type: 'contacts', rows: [{ phone: '+5511976200001' }, { phone: '+5511976200002' }] };
    const answers = await concurrently(15, () => request(api.app).post('/v1/imports').set(t.auth).set('Idempotency-Key', 'import-1').send(body));
    expectOneIdempotentEffect(answers, 202, { idOf: (d) => d.job_id });
    const jobs = await sql<{ n: string }>`SELECT count(*) AS n FROM contact_imports WHERE company_id = ${t.company.id}`.execute(api.database.db);
    expect(Number(jobs.rows[0]!.n)).toBe(1);
  });
});
