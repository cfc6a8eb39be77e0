import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestApi, type TestApi } from '../testing/test-api.js';
import { createTestWorker, eventually, type TestWorker } from '../../../worker/src/testing/test-worker.js';

// A contact import checked at POST and written later by the worker, while the operator deletes what it names.

let api: TestApi;
let worker: TestWorker | undefined;
beforeAll(async () => {
  api = await createTestApi();
});
afterAll(async () => {
  await worker?.close();
  await api.close();
});

describe('a custom field or a tag deleted while an import that uses it is queued', () => {
  it('writes the rows without the deleted field values and tag links, as if the import had run before the delete', async () => {
    const { company, auth } = await api.createTenant({ settings: { company_rpm: 100_000 }, key: { rpm: 100_000 } });
    const admin = (method: 'post' | 'delete', path: string, body?: object) => request(api.app)[method](path).set(api.adminAuth).send(body);
    const plano = (await admin('post', `/admin/v1/companies/${company.id}/contact-fields`, { key: 'plano', label: 'Plano', type: 'select', options: ['ouro'] }).expect(201)).body.data;
    await admin('post', `/admin/v1/companies/${company.id}/contact-fields`, { key: 'cidade', label: 'Cidade', type: 'text' }).expect(201);
    const tag = (await request(api.app).post('/v1/tags').set(auth).send({ name: 'Importado' }).expect(201)).body.data;
    const job = (
      await request(api.app)
        .post('/v1/imports')
        .set(auth)
        .send({ type: 'contacts', tag_ids: [tag.id], rows: [{ phone: '+5511987653001', name: 'Ana', custom_fields: { plano: 'ouro', cidade: 'Recife' } }] })
        .expect(202)
    ).body.data;

    expect(job.status).toBe('queued');
    await admin('delete', `/admin/v1/contact-fields/${plano.id}`).expect(200);
    await request(api.app).delete(`/v1/tags/${tag.id}`).set(auth).expect(200);
    worker = await createTestWorker({ database: api.database });

    const done = await eventually(async () => {
      const status = (await request(api.app).get(`/v1/imports/${job.job_id}`).set(auth).expect(200)).body.data;
      return status.status === 'completed' || status.status === 'failed' ? status : null;
    }, { timeoutMs: 30_000 });
    expect(done).toMatchObject({ status: 'completed', created: 1, failed: 0 });
    const contact = (await request(api.app).get(`/v1/contacts?phone=${encodeURIComponent('+5511987653001')}`).set(auth).expect(200)).body.data.items[0];
    expect(contact).toMatchObject({ name: 'Ana', tag_ids: [] });
    expect(contact.custom_fields).toEqual({ cidade: 'Recife' });
    // A field of that key made again starts empty: no value of the deleted one was left behind.
    await admin('post', `/admin/v1/companies/${company.id}/contact-fields`, { key: 'plano', label: 'Plano', type: 'number' }).expect(201);
    expect((await request(api.app).get(`/v1/contacts/${contact.id}`).set(auth).expect(200)).body.data.custom_fields).toEqual({ cidade: 'Recife' });
  });
});
