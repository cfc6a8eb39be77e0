import { afterAll, beforeAll, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestApi, type TestApi } from '../testing/test-api.js';
import { createTestWorker, eventually, type TestWorker } from '../../../worker/src/testing/test-worker.js';

// The README's contacts tour, call for call, with the answers it promises.
let api: TestApi;
let worker: TestWorker;
beforeAll(async () => {
  api = await createTestApi();
  worker = await createTestWorker({ database: api.database });
});
afterAll(async () => {
  await worker?.close();
  await api?.close();
});

it('fields, a fill-only upsert, a rule tagging from an inbound message, an import followed to completion', async () => {
  const company = await api.createCompany();
  const auth = { Authorization: `Bearer ${await api.createKey(company.id)}` };
  const setor = await api.createSetor(company.id);
  const admin = (path: string, body: object) => request(api.app).post(path).set(api.adminAuth).send(body);
  const post = (path: string, body: object) => request(api.app).post(path).set(auth).send(body);

  expect((await admin(`/admin/v1/companies/${company.id}/contact-fields`, { key: 'plano', label: 'Plano', type: 'select', options: ['ouro', 'prata'] })).status).toBe(201);
  expect((await admin(`/admin/v1/companies/${company.id}/contact-fields`, { key: 'cpf', label: 'CPF', type: 'cpf' })).status).toBe(201);
  expect((await post('/v1/contacts', { phone: '+5511998760001', name: 'Ana', custom_fields: { plano: 'ouro' } })).status).toBe(201);
  const filled = await post('/v1/contacts', { phone: '+551198760001', name: 'Outra', email: 'ana@example.com', custom_fields: { cpf: '529.982.247-25' } });
  expect(filled.body.data).toMatchObject({ created: false, filled: ['email', 'custom_fields.cpf'], kept: ['name'] });

  const tag = (await post('/v1/tags', { name: 'Orçamento', color: '#FFAA00' })).body.data.id;
  expect((await post('/v1/tag-rules', { tag_id: tag, match_type: 'contains', match_value: 'orcamento' })).status).toBe(201);
  expect((await post('/v1/tag-rules/test', { text: 'Quero um ORÇAMENTO' })).body.data.matches).toHaveLength(1);
  const inbound = await admin('/admin/v1/simulator/inbound', { setor_id: setor.id, from: '+5511998760001', text: 'Quero um orçamento' });
  expect(inbound.body.data.tags_added).toEqual([tag]);
  const tagged = await request(api.app).get(`/v1/contacts?tag_id=${tag}`).set(auth);
  expect(tagged.body.data.items.map((c: { phone: string }) => c.phone)).toEqual(['+5511998760001']);

  const csv = 'phone,name,plano\n+5511998760002,Bia,prata\n+5511998760003,Cid,ouro\n+5511998760003,Cid de novo,ouro\nnope,X,ouro\n';
  const job = (await post('/v1/imports', { type: 'contacts', mode: 'fill', csv })).body.data.job_id;
  const done = await eventually(
    async () => {
      const res = await request(api.app).get(`/v1/imports/${job}`).set(auth);
      return res.body.data.status === 'completed' ? res.body.data : null;
    },
    { timeoutMs: 20_000 },
  );
  expect(done).toMatchObject({ total: 4, created: 2, skipped: 1, failed: 1, progress: 100 });
  expect(done.errors.map((e: { code: string }) => e.code)).toEqual(['DUPLICATE_IN_FILE', 'INVALID_NUMBER']);
});
