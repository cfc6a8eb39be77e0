import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { withoutTestFailures } from '../testing/no-test-failures.js';
import { createTestApi, type TestApi } from '../testing/test-api.js';
import { createTestWorker, eventually, type TestWorker } from '../../../worker/src/testing/test-worker.js';

// A box disconnected while a ticket's closing message and rating request are queued, then connected again.


let api: TestApi;
let worker: TestWorker;
beforeAll(async () => {
  api = await createTestApi({ overrides: withoutTestFailures() });
  worker = await createTestWorker({ database: api.database, overrides: withoutTestFailures() });
});
afterAll(async () => {
  await worker?.close();
  await api?.close();
});

describe('a box disconnected while a closing message and a rating request are queued', () => {
  it('skips both (nothing charged, rating not_sent); once connected again a "5" is a message, not a rating', async () => {
    const { company, auth, setor, instance } = await api.createTenant({ settings: { company_rpm: 100_000 }, key: { rpm: 100_000 } });
    const admin = (method: 'post' | 'patch', path: string, body: object) => request(api.app)[method](path).set(api.adminAuth).send(body);
    await admin('patch', `/admin/v1/setores/${setor.id}`, { closing_message: 'Obrigado!', csat_enabled: true, csat_question: 'Nota?' }).expect(200);
    const phone = '+5511987654501';
    const first = (await admin('post', '/admin/v1/simulator/inbound', { setor_id: setor.id, from: phone, text: 'Oi' }).expect(201)).body.data;

    await request(api.app).post(`/v1/channel/instances/${instance.id}/disconnect`).set(auth).send({}).expect(200);
    const closed = (await request(api.app).patch(`/v1/tickets/${first.ticket_id}/status`).set(auth).send({ status: 'closed' }).expect(200)).body.data;
    expect(closed.closing).toEqual({ closing_message: 'queued', rating_request: 'queued' });

    const ticket = await eventually(async () => {
      const t = (await request(api.app).get(`/v1/tickets/${first.ticket_id}`).set(auth).expect(200)).body.data;
      return t.rating_status === 'not_sent' ? t : null;
    }, { timeoutMs: 30_000 });
    expect(ticket.status).toBe('closed');
    const failed = await eventually(async () => {
      const items = (await request(api.app).get(`/v1/tickets/${first.ticket_id}/messages?order=asc`).set(auth).expect(200)).body.data.items;
      const out = items.filter((m: { direction: string | null; type: string }) => m.type === 'message' && m.direction === 'outbound');
      return out.length === 2 && out.every((m: { status: string }) => m.status === 'failed') ? out : null;
    }, { timeoutMs: 30_000 });
    expect(failed.map((m: { error_code: string }) => m.error_code)).toEqual(['SENDER_DISCONNECTED', 'SENDER_DISCONNECTED']);

    await api.connectSetor(company.id, setor.id);
    const again = (await admin('post', '/admin/v1/simulator/inbound', { setor_id: setor.id, from: phone, text: '5' }).expect(201)).body.data;
    expect(again.rating_recorded).toBe(false);
  });
});
