import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { Metrics, startMetricsServer, type MetricsServer, type ProcessMetrics } from '@carteiro/metrics';
import { createTestApi, type TestApi } from '../../../api/src/testing/test-api.js';
import { createTestWorker, eventually, type TestWorker } from '../testing/test-worker.js';
import { campaignTenant, phone, simulatorOverride } from './testing/campaign-e2e.js';

/** The value of one series in a scrape (0 when absent). */
function series(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.slice(name.length + 1)) : 0;
}

let api: TestApi;
let worker: TestWorker;
let metrics: MetricsServer;
let receiver: Server;
let receiverUrl: string;
const answers: number[] = [];
const TOKEN = 'worker-scrape-token';

beforeAll(async () => {
  // The first delivery is refused (503), everything after is taken: one retry, then successes.
  let received = 0;
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      res.statusCode = received === 1 ? 503 : 200;
      answers.push(res.statusCode);
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  api = await createTestApi({ env: { PACING_SCALE: '0.01' } });
  worker = await createTestWorker({
    database: api.database,
    env: { PACING_SCALE: '0.01', WEBHOOK_RETRY_BASE_MS: '50' },
    overrides: [simulatorOverride(api.database.db)],
  });
  // How a ROLE=worker process is scraped: its own listener (METRICS_PORT), here on a free port.
  metrics = await startMetricsServer({ host: '127.0.0.1', port: 0, registry: worker.container.get<ProcessMetrics>(Metrics).registry, token: TOKEN });
});
afterAll(async () => {
  await metrics?.close();
  await worker?.close();
  await api?.close();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
});

const scrape = async () => (await request(metrics.server).get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200)).text;

it('the worker listener asks for the token and answers its error envelope', async () => {
  const refused = await request(metrics.server).get('/metrics');
  expect(refused.status).toBe(401);
  expect(refused.body).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: 'Missing or invalid metrics token' } });
  expect((await request(metrics.server).get('/healthz')).status).toBe(200);
  expect((await request(metrics.server).get('/other')).body.error.code).toBe('NOT_FOUND');
});

it('after a campaign: its sends by outcome, the lane turns in the lateness histogram, the lane active while it ran, and the webhook deliveries with their lag', async () => {
  const t = await campaignTenant(api, { boxes: 1 });
  const admin = { Authorization: `Bearer ${await api.createKey(t.company.id, { scopes: ['webhooks:manage'], mode: 'live' })}` };
  const hook = await request(api.app).post('/v1/webhooks').set(admin).send({ url: receiverUrl, events: ['message.sent'] });
  expect(hook.status).toBe(201);
  const before = await scrape();
  // Eight recipients, the last one blocked the sender (simulator: …0002); at least 300 ms between sends (warming × 0.01).
  const recipients = [...Array.from({ length: 7 }, (_, i) => ({ phone: phone(i) })), { phone: '+5511966660002' }];
  const created = await request(api.app).post('/v1/campaigns').set(t.auth).send({ name: 'Metrics', recipients, message: { text: 'Oi' } });
  expect(created.status).toBe(202);
  await eventually(async () => series(await scrape(), 'carteiro_campaign_lanes_active') >= 1, { timeoutMs: 15_000, intervalMs: 20 });
  const detail = async () => (await request(api.app).get(`/v1/campaigns/${created.body.data.id}`).set(t.auth)).body.data;
  await eventually(async () => (await detail()).status === 'concluido', { timeoutMs: 20_000 });
  // Seven message.sent events: the first refused once, so eight attempts, seven successes.
  await eventually(async () => series(await scrape(), 'carteiro_webhook_attempts_total{result="succeeded",reason="2xx"}') - series(before, 'carteiro_webhook_attempts_total{result="succeeded",reason="2xx"}') === 7, { timeoutMs: 20_000 });
  const after = await scrape();
  const delta = (name: string) => series(after, name) - series(before, name);
  expect(delta('carteiro_campaign_sends_total{outcome="sent"}')).toBe(7);
  expect(delta('carteiro_campaign_sends_total{outcome="RECIP_BLOCKED"}')).toBe(1);
  expect(delta('carteiro_channel_sends_total{outcome="sent",group="sent"}')).toBe(7);
  expect(delta('carteiro_channel_sends_total{outcome="RECIP_BLOCKED",group="recipient"}')).toBe(1);
  // Every send but the number's very first had a planned instant.
  expect(delta('carteiro_campaign_lane_lateness_seconds_count')).toBe(7);
  expect(series(after, 'carteiro_campaign_lane_lateness_seconds_bucket{le="+Inf"}')).toBe(series(after, 'carteiro_campaign_lane_lateness_seconds_count'));
  await eventually(async () => series(await scrape(), 'carteiro_campaign_lanes_active') === 0, { timeoutMs: 10_000 });

  expect(answers.filter((s) => s === 503)).toHaveLength(1);
  expect(delta('carteiro_webhook_attempts_total{result="retry",reason="5xx"}')).toBe(1);
  expect(delta('carteiro_webhook_delivery_lag_seconds_count')).toBe(7);
  expect(delta('carteiro_webhook_delivery_lag_seconds_sum')).toBeGreaterThan(0);
  expect(delta('carteiro_webhook_attempt_duration_seconds_count{result="succeeded"}')).toBe(7);
  // Sampled from the database: the lane queue is declared, and nothing is left pending.
  expect(after).toMatch(/^carteiro_queue_jobs\{queue="campaign-lane",state="ready"\} \d+$/m);
  expect(after).toMatch(/^carteiro_db_pool_connections\{pool="app"\} [1-9]\d*$/m);
  expect(after).toMatch(/^carteiro_db_pool_max_connections\{pool="queue"\} [1-9]\d*$/m);
}, 60_000);
