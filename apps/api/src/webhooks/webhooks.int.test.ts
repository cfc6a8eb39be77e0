import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { UnitOfWork, type EventName } from '@carteiro/core';
// The worker's test helper: deliveries need the delivery loop running beside the API.
import { createTestWorker, eventually, type TestWorker } from '../../../worker/src/testing/test-worker.js';
import { createTestApi, type TestApi } from '../testing/test-api.js';
import type { ServiceUnitOfWork } from '@carteiro/postgres';

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

/** A local receiver on 127.0.0.1 that answers with the status the test sets. */
async function startReceiver() {
  const state = { status: 200, delayMs: 0, requests: [] as Received[] };
  const server: Server = createServer((req, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      state.requests.push({ headers: req.headers, body });
      const answer = () => {
        res.statusCode = state.status;
        res.end('{}');
      };
      if (state.delayMs > 0) setTimeout(answer, state.delayMs).unref();
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return {
    state,
    url,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('/v1/webhooks', () => {
  let api: TestApi;
  let worker: TestWorker;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let key: string;
  let companyId: string;
  const authed = (key: string) => ({ Authorization: `Bearer ${key}` });

  beforeAll(async () => {
    api = await createTestApi();
    worker = await createTestWorker({ database: api.database, env: { WEBHOOK_RETRY_BASE_MS: '20' } });
    receiver = await startReceiver();
    // Polling the delivery log makes many requests: lift the default 60 per minute.
    companyId = (await api.createCompany({ company_rpm: 100_000 })).id;
    key = await api.createKey(companyId, { scopes: ['webhooks:manage'], rpm: 100_000 });
  });

  afterAll(async () => {
    await receiver?.close();
    await worker?.close();
    await api?.close();
  });

  /** What a use case does: the event is committed with its change. */
  const emit = (event: EventName, data: Record<string, unknown>, callbackUrl?: string) =>
    api.container.get<ServiceUnitOfWork>(UnitOfWork).transaction((repos) =>
      repos.events.record([
        {
          id: crypto.randomUUID(),
          event,
          companyId,
          setorId: null,
          occurredAt: new Date(),
          data,
          actor: { user_id: null, source: 'system' },
          callbackUrl: callbackUrl ?? null,
        },
      ]),
    );

  it('registers a webhook, shows the secret once, lists, reads, updates and deletes it', async () => {
    const created = await request(api.app)
      .post('/v1/webhooks')
      .set(authed(key))
      .send({ url: receiver.url, events: ['message.sent', 'campaign.completed'] });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ url: receiver.url, events: ['message.sent', 'campaign.completed'], active: true });
    expect(created.body.data.secret).toMatch(/^[0-9a-f]{64}$/);
    const id = created.body.data.id;

    const list = await request(api.app).get('/v1/webhooks').set(authed(key));
    expect(list.status).toBe(200);
    expect(list.body.data).toMatchObject({ total: 1, page: 1, totalPages: 1 });
    expect(list.body.data.items[0]).toEqual({
      id,
      url: receiver.url,
      events: ['message.sent', 'campaign.completed'],
      active: true,
      created_at: created.body.data.created_at,
      updated_at: expect.any(String),
    });
    expect(JSON.stringify(list.body)).not.toContain(created.body.data.secret);

    const updated = await request(api.app).put(`/v1/webhooks/${id}`).set(authed(key)).send({ active: false });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toEqual({ id, url: receiver.url, events: ['message.sent', 'campaign.completed'], active: false, updated_at: expect.any(String) });
    expect((await request(api.app).put(`/v1/webhooks/${id}`).set(authed(key)).send({})).status).toBe(200);

    const deleted = await request(api.app).delete(`/v1/webhooks/${id}`).set(authed(key));
    expect(deleted.body).toEqual({ success: true, data: { deleted: true, id } });
    expect((await request(api.app).get(`/v1/webhooks/${id}`).set(authed(key))).status).toBe(404);
    expect((await request(api.app).delete(`/v1/webhooks/${id}`).set(authed(key))).status).toBe(404);
    expect((await request(api.app).put('/v1/webhooks/not-a-uuid').set(authed(key)).send({})).status).toBe(404);
  });

  it('answers 400 with details for unknown events, bad bodies and invalid URLs, and 403 without the scope', async () => {
    const unknown = await request(api.app).post('/v1/webhooks').set(authed(key)).send({ url: receiver.url, events: ['message.sent', 'nope'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('VALIDATION_ERROR');
    expect(unknown.body.error.details.errors[0].field).toBe('events.1');
    expect((await request(api.app).post('/v1/webhooks').set(authed(key)).send({ events: ['message.sent'] })).status).toBe(400);
    expect((await request(api.app).post('/v1/webhooks').set(authed(key)).send({ url: receiver.url, events: [] })).status).toBe(400);
    expect((await request(api.app).post('/v1/webhooks').set(authed(key)).send({ url: receiver.url, events: ['message.sent'], active: 'yes' })).status).toBe(400);
    const badUrl = await request(api.app).post('/v1/webhooks').set(authed(key)).send({ url: 'not a url', events: ['message.sent'] });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.error.details).toMatchObject({ field: 'url', reason: 'invalid_url' });
    const other = await api.createKey(companyId, { scopes: ['campaigns:read'] });
    expect((await request(api.app).get('/v1/webhooks').set(authed(other))).status).toBe(403);
  });

  it('delivers signed events, keeps a delivery log, and redelivers with the same X-Webhook-Id', async () => {
    const created = await request(api.app).post('/v1/webhooks').set(authed(key)).send({ url: receiver.url, events: ['message.sent', 'campaign.completed'] });
    const { id, secret } = created.body.data;
    receiver.state.requests = [];
    await emit('message.sent', { campaignId: 'c1', detailId: 'd1', status: 'sent' });
    await emit('message.failed', { campaignId: 'c1', detailId: 'd2', status: 'failed' }); // not subscribed
    await emit('campaign.completed', { campaignId: 'c1', cancelledByUser: false });
    const log = await eventually(async () => {
      const res = await request(api.app).get(`/v1/webhooks/${id}/deliveries`).set(authed(key));
      return res.body.data.total === 2 && res.body.data.items.every((d: { status: string }) => d.status === 'succeeded') && res.body.data;
    });
    expect(receiver.state.requests.map((r) => JSON.parse(r.body).event).sort()).toEqual(['campaign.completed', 'message.sent']);
    for (const r of receiver.state.requests) {
      const expected = createHmac('sha256', secret).update(`${r.headers['x-webhook-timestamp']}.${r.body}`).digest('hex');
      expect(r.headers['x-webhook-signature']).toBe(expected);
    }
    const completed = log.items.find((d: { event: string }) => d.event === 'campaign.completed');
    expect(completed).toMatchObject({
      status: 'succeeded',
      attempt_count: 1,
      payload: { event: 'campaign.completed', version: 'v1', empresa_id: companyId, data: { campaignId: 'c1', cancelledByUser: false } },
      attempts: [{ number: 1, status_code: 200, error: null, result: 'succeeded', duration_ms: expect.any(Number) }],
    });

    const redelivered = await request(api.app).post(`/v1/webhooks/${id}/deliveries/${completed.id}/redeliver`).set(authed(key));
    expect(redelivered.status).toBe(202);
    expect(redelivered.body.data).toMatchObject({ id: completed.id, status: 'pending' });
    await eventually(async () => receiver.state.requests.filter((r) => r.headers['x-webhook-id'] === completed.id).length === 2);
    const after = await eventually(async () => {
      const res = await request(api.app).get(`/v1/webhooks/${id}/deliveries?status=succeeded`).set(authed(key));
      const item = res.body.data.items.find((d: { id: string }) => d.id === completed.id);
      return item?.attempts.length === 2 && item;
    });
    expect(after.attempts.map((a: { number: number }) => a.number)).toEqual([1, 2]);
    expect((await request(api.app).post(`/v1/webhooks/${id}/deliveries/${crypto.randomUUID()}/redeliver`).set(authed(key))).status).toBe(404);
    expect((await request(api.app).get(`/v1/webhooks/${id}/deliveries?status=weird`).set(authed(key))).status).toBe(400);
  });

  it('records failing attempts with status codes and errors in the log', async () => {
    const created = await request(api.app).post('/v1/webhooks').set(authed(key)).send({ url: receiver.url, events: ['campaign.paused'] });
    receiver.state.status = 500;
    await emit('campaign.paused', { campaignId: 'c2' });
    const failed = await eventually(async () => {
      const res = await request(api.app).get(`/v1/webhooks/${created.body.data.id}/deliveries?status=failed`).set(authed(key));
      return res.body.data.items[0];
    });
    receiver.state.status = 200;
    expect(failed.attempt_count).toBe(5);
    expect(failed.attempts.map((a: { status_code: number; error: string }) => [a.status_code, a.error])).toEqual(Array(5).fill([500, 'HTTP 500']));
  });

  it('tests a webhook synchronously and documents the outcome in the response', async () => {
    const created = await request(api.app).post('/v1/webhooks').set(authed(key)).send({ url: receiver.url, events: ['message.read'], active: false });
    receiver.state.requests = [];
    const ok = await request(api.app).post(`/v1/webhooks/${created.body.data.id}/test`).set(authed(key));
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ delivered: true, status_code: 200, error: null, payload: { event: 'webhook.test', version: 'v1' } });
    expect(receiver.state.requests[0]?.headers['x-webhook-id']).toBe(ok.body.data.delivery_id);
    receiver.state.status = 404;
    const notFound = await request(api.app).post(`/v1/webhooks/${created.body.data.id}/test`).set(authed(key));
    receiver.state.status = 200;
    expect(notFound.body.data).toMatchObject({ delivered: false, status_code: 404, error: 'HTTP 404' });
  });

  it('counts a receiver slower than 5 seconds as failed in the test endpoint', async () => {
    const created = await request(api.app).post('/v1/webhooks').set(authed(key)).send({ url: receiver.url, events: ['message.read'] });
    receiver.state.delayMs = 6000;
    const slow = await request(api.app).post(`/v1/webhooks/${created.body.data.id}/test`).set(authed(key));
    receiver.state.delayMs = 0;
    expect(slow.body.data).toMatchObject({ delivered: false, status_code: null, error: 'timeout: no answer within 5 seconds' });
    expect(slow.body.data.duration_ms).toBeGreaterThanOrEqual(4900);
  }, 15_000);

  it('without ALLOW_PRIVATE_WEBHOOKS refuses http, loopback and private URLs at registration', async () => {
    const strict = await createTestApi({ env: { ALLOW_PRIVATE_WEBHOOKS: '' } });
    try {
      const company = await strict.createCompany();
      const strictKey = await strict.createKey(company.id, { scopes: ['webhooks:manage'] });
      for (const [url, reason] of [
        [receiver.url, 'scheme_not_allowed'],
        ['https://127.0.0.1/hook', 'private_address'],
        ['https://[::1]/hook', 'private_address'],
        ['https://192.168.0.10/hook', 'private_address'],
        ['https://localhost/hook', 'private_address'],
      ] as const) {
        const res = await request(strict.app).post('/v1/webhooks').set(authed(strictKey)).send({ url, events: ['message.sent'] });
        expect([url, res.status, res.body.error?.details?.reason]).toEqual([url, 400, reason]);
      }
    } finally {
      await strict.close();
    }
  });
});
