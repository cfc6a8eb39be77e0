import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestApi, type TestApi } from '../testing/test-api.js';

// The operator edits then deactivates a contract template while drafts made from it are still being filled.

let api: TestApi;
beforeAll(async () => {
  api = await createTestApi();
});
afterAll(() => api.close());

describe('a contract template edited and deactivated with drafts', () => {
  it('leaves the drafts their text; their variables can still be changed; new drafts from it are 404', async () => {
    const { company, auth } = await api.createTenant({ settings: { company_rpm: 100_000 }, key: { rpm: 100_000 } });
    const admin = (method: 'post' | 'patch' | 'delete', path: string, body?: object) => request(api.app)[method](path).set(api.adminAuth).send(body);
    const template = (
      await admin('post', `/admin/v1/companies/${company.id}/contract-templates`, { name: 'Serviços', body: 'Prazo: {{prazo}}.', variables: [{ key: 'prazo', label: 'Prazo' }] }).expect(201)
    ).body.data;
    const client = (await request(api.app).post('/v1/contacts').set(auth).send({ phone: '+5511987655001', name: 'Ana' }).expect(201)).body.data;
    const draft = (await request(api.app).post('/v1/contracts').set(auth).send({ title: 'X', client_id: client.id, template_id: template.id, variables: { prazo: '12 meses' } }).expect(201)).body.data;

    await admin('patch', `/admin/v1/contract-templates/${template.id}`, { body: 'Outro texto: {{prazo}}.' }).expect(200);
    await admin('delete', `/admin/v1/contract-templates/${template.id}`).expect(200);

    const edited = (await request(api.app).patch(`/v1/contracts/${draft.id}`).set(auth).send({ variables: { prazo: '24 meses' } }).expect(200)).body.data;
    expect(edited).toMatchObject({ template_id: template.id, variables: { prazo: '24 meses' }, content: draft.content });
    await request(api.app).patch(`/v1/contracts/${draft.id}`).set(auth).send({ variables: {} }).expect(422);
    await request(api.app).post('/v1/contracts').set(auth).send({ title: 'Y', client_id: client.id, template_id: template.id, variables: { prazo: '1' } }).expect(404);
  });
});
