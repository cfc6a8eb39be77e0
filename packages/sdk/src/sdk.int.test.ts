import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
// The real service, in process, listening on a port: the SDK talks to it over HTTP like any client.
import { createTestApi, type TestApi } from '../../../apps/api/src/testing/test-api.js';
import { CarteiroApiError, createCarteiroClient, readWebhook, unwrap, verifyWebhookSignature, type CarteiroClient } from './index.js';

let api: TestApi;
let server: Server;
let baseUrl: string;
let apiKey: string;
let client: CarteiroClient;

/** The example is plain JavaScript (it runs on Node.js 20 as it is); this is its shape. */
type SendAndCampaign = (options: { baseUrl: string; apiKey: string; phone: string }) => Promise<{
  sent: unknown;
  created: { id: string };
  campaign: unknown;
  messages: { items: { clientes: { nome: string } }[] };
  cancelled: { cancelled: number };
}>;
const examplePath: string = '../examples/send-and-campaign.mjs';

beforeAll(async () => {
  api = await createTestApi();
  server = await new Promise<Server>((resolve) => {
    const s = api.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Any hour: the example's scheduled campaign would otherwise be deferred to the safe window in the evening.
  const company = await api.createCompany({ company_rpm: 10_000, safe_hours: { start: 0, end: 24 } });
  // A live key: test keys fail 5% of sends at random. Without a provider configured, live sends reach the simulator.
  apiKey = await api.createKey(company.id, { mode: 'live', rpm: 10_000 });
  const setor = await api.createSetor(company.id);
  await api.connectSetor(company.id, setor.id);
  client = createCarteiroClient({ baseUrl, apiKey });
});

afterAll(async () => {
  if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  await api?.close();
});

describe('@carteiro/sdk against the real API', () => {
  it('runs the example: sends a message, creates a campaign, reads it back and cancels it', async () => {
    const { sendAndCampaign } = (await import(examplePath)) as { sendAndCampaign: SendAndCampaign };
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const { sent, created, campaign, messages, cancelled } = await sendAndCampaign({ baseUrl, apiKey, phone: '+5511987654321' });
      expect(sent).toMatchObject({ phone: '+5511987654321', status: 'sent' });
      expect(created).toMatchObject({ status: 'queued', total_recipients: 2, execution_mode: 'scheduled' });
      expect(campaign).toMatchObject({ id: created.id, name: 'Boas-vindas', status: 'pendente', total_destinatarios: 2, progress: 0 });
      expect(messages.items.map((m) => m.clientes.nome).sort()).toEqual(['Ana Souza', 'Bruno']);
      expect(log).toHaveBeenCalledWith(expect.stringContaining(`campaign ${created.id} queued`));
      // It cleans up: its campaign is cancelled, nothing stays scheduled against the concurrency limit.
      expect(cancelled).toEqual({ cancelled: 2 });
      const after = await unwrap(client.GET('/v1/campaigns/{id}', { params: { path: { id: created.id } } }));
      expect(after).toMatchObject({ id: created.id, cancelled_by_user: true });
      expect(after.status).not.toBe('pendente');
    } finally {
      log.mockRestore();
    }
  });

  it('returns typed data and error envelopes, and unwrap throws CarteiroApiError', async () => {
    const missing = crypto.randomUUID();
    const answer = await client.GET('/v1/campaigns/{id}', { params: { path: { id: missing } } });
    expect(answer.response.status).toBe(404);
    expect(answer.error?.error.code).toBe('NOT_FOUND');

    const thrown = await unwrap(client.GET('/v1/campaigns/{id}', { params: { path: { id: missing } } })).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(CarteiroApiError);
    expect(thrown).toMatchObject({ status: 404, code: 'NOT_FOUND' });

    const invalid = await unwrap(client.POST('/v1/webhooks', { body: { url: 'https://example.org/hook', events: [] } })).catch((e: unknown) => e);
    expect(invalid).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details: { errors: [{ field: 'events' }] } });

    const anonymous = createCarteiroClient({ baseUrl, apiKey: 'ak_test_not-a-key' });
    expect((await anonymous.GET('/v1/limits')).error?.error.code).toBe('UNAUTHORIZED');
  });

  it("verifies a real delivery's signature with the helper and rejects a tampered one", async () => {
    const received: { headers: IncomingHttpHeaders; body: string }[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.statusCode = 204;
        res.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
      const webhook = await unwrap(client.POST('/v1/webhooks', { body: { url, events: ['message.sent'] } }));
      // The test endpoint delivers one signed webhook.test event synchronously.
      const test = await unwrap(client.POST('/v1/webhooks/{id}/test', { params: { path: { id: webhook.id } } }));
      expect(test).toMatchObject({ delivered: true, status_code: 204 });
      expect(received).toHaveLength(1);
      const delivery = received[0]!;

      const read = readWebhook({ secret: webhook.secret, rawBody: delivery.body, headers: delivery.headers });
      expect(read).toMatchObject({ valid: true, id: test.delivery_id, event: { event: 'webhook.test', version: 'v1', data: { webhook_id: webhook.id } } });

      const nowSeconds = Math.floor(Date.now() / 1000);
      const check = (rawBody: string, secret = webhook.secret, now = nowSeconds) =>
        verifyWebhookSignature({
          secret,
          rawBody,
          timestamp: delivery.headers['x-webhook-timestamp'] as string,
          signature: delivery.headers['x-webhook-signature'] as string,
          nowSeconds: now,
        });
      expect(check(delivery.body)).toEqual({ valid: true });
      expect(check(delivery.body.replace('webhook.test', 'webhook.tset'))).toEqual({ valid: false, reason: 'signature_mismatch' });
      expect(check(delivery.body, 'f'.repeat(64))).toEqual({ valid: false, reason: 'signature_mismatch' });
      expect(check(delivery.body, webhook.secret, nowSeconds + 301)).toEqual({ valid: false, reason: 'timestamp_out_of_tolerance' });
      expect(readWebhook({ secret: webhook.secret, rawBody: delivery.body, headers: {} })).toEqual({ valid: false, reason: 'missing_headers' });
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});
