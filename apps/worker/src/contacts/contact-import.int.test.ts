import { afterAll, beforeAll, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestApi, type TestApi } from '../../../api/src/testing/test-api.js';
import { createTestWorker, eventually, type TestWorker } from '../testing/test-worker.js';

let api: TestApi;
let worker: TestWorker;
let auth: { Authorization: string };
let companyId: string;

beforeAll(async () => {
  api = await createTestApi();
  worker = await createTestWorker({ database: api.database });
  const company = await api.createCompany({ company_rpm: 100_000 });
  companyId = company.id;
  auth = { Authorization: `Bearer ${await api.createKey(company.id, { rpm: 100_000 })}` };
  await request(api.app).post(`/admin/v1/companies/${company.id}/contact-fields`).set(api.adminAuth).send({ key: 'pontos', label: 'Pontos', type: 'number' });
});
afterAll(async () => {
  await worker?.close();
  await api?.close();
});

const finished = (jobId: string) =>
  eventually(
    async () => {
      const res = await request(api.app).get(`/v1/imports/${jobId}`).set(auth);
      return res.body.data.status === 'completed' || res.body.data.status === 'failed' ? res.body.data : null;
    },
    { timeoutMs: 30_000 },
  );

it('runs an import to completion: counts from the database, row errors, duplicates in the file, import.completed', async () => {
  const tag = (await request(api.app).post('/v1/tags').set(auth).send({ name: 'Importados' })).body.data;
  await request(api.app).post('/v1/contacts').set(auth).send({ phone: '+5511987000001', name: 'Já existia' });
  const rows = [
    { phone: '+5511987000001', name: 'Outro nome', email: 'a@x.test' },
    { phone: '+5511987000002', name: 'Bia', custom_fields: { pontos: 3 } },
    { phone: '+551187000002', name: 'Bia de novo' },
    { phone: 'not a phone' },
    { phone: '+5511987000003', custom_fields: { pontos: 'muitos' } },
    { phone: '+5511987000004', tag_ids: ['00000000-0000-4000-8000-000000000001'] },
    ...Array.from({ length: 600 }, (_, i) => ({ phone: `+55119${(88_000_000 + i).toString()}`, name: `P${i}` })),
  ];
  const created = await request(api.app).post('/v1/imports').set(auth).send({ type: 'contacts', rows, tag_ids: [tag.id] });
  expect(created.status).toBe(202);
  const job = await finished(created.body.data.job_id);
  expect(job).toMatchObject({ status: 'completed', total: 606, processed: 606, created: 601, updated: 1, skipped: 1, failed: 3, progress: 100 });
  expect(job.errors.map((e: { row: number; code: string }) => [e.row, e.code])).toEqual([
    [3, 'DUPLICATE_IN_FILE'],
    [4, 'INVALID_NUMBER'],
    [5, 'INVALID_VALUE'],
    [6, 'TAG_NOT_FOUND'],
  ]);
  expect(job.started_at).not.toBeNull();
  expect(job.finished_at).not.toBeNull();
  const existing = (await request(api.app).get('/v1/contacts?phone=%2B5511987000001').set(auth)).body.data.items[0];
  expect(existing).toMatchObject({ name: 'Já existia', email: 'a@x.test', tag_ids: [tag.id] });
  const counted = await api.database.db.selectFrom('contacts').select((eb) => eb.fn.countAll<string>().as('n')).where('company_id', '=', companyId).executeTakeFirstOrThrow();
  expect(Number(counted.n)).toBe(602);
  const events = await api.database.db.selectFrom('domain_events').select(['event', 'data']).where('company_id', '=', companyId).where('event', 'like', 'import.%').execute();
  expect(events).toEqual([{ event: 'import.completed', data: { jobId: job.job_id, total: 606, created: 601, updated: 1, skipped: 1, failed: 3 } }]);
  const createdEvents = await api.database.db
    .selectFrom('domain_events')
    .select('data')
    .where('company_id', '=', companyId)
    .where('event', '=', 'contact.created')
    .where(({ ref }) => ref('data', '->>').key('source'), '=', 'import')
    .execute();
  expect(createdEvents).toHaveLength(601);
});

it('modes: overwrite replaces given fields, create_only never touches existing contacts; CSV rows are read by their header', async () => {
  const csv = 'phone,name,pontos\n+5511987000001,Sobrescrito,10\n+5511987000099,Novo,7\n';
  const overwrite = await request(api.app).post('/v1/imports').set(auth).send({ type: 'contacts', csv, mode: 'overwrite' });
  expect(overwrite.status).toBe(202);
  expect(await finished(overwrite.body.data.job_id)).toMatchObject({ status: 'completed', created: 1, updated: 1, skipped: 0, failed: 0 });
  const first = (await request(api.app).get('/v1/contacts?phone=%2B5511987000001').set(auth)).body.data.items[0];
  expect(first).toMatchObject({ name: 'Sobrescrito', custom_fields: { pontos: 10 } });
  const createOnly = await request(api.app)
    .post('/v1/imports')
    .set(auth)
    .send({ type: 'contacts', mode: 'create_only', rows: [{ phone: '+5511987000001', name: 'Nunca' }, { phone: '+5511987000100', name: 'Nova' }] });
  expect(await finished(createOnly.body.data.job_id)).toMatchObject({ status: 'completed', created: 1, updated: 0, skipped: 1 });
  expect((await request(api.app).get('/v1/contacts?phone=%2B5511987000001').set(auth)).body.data.items[0].name).toBe('Sobrescrito');
});
