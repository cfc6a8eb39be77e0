import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestApi, secondApiApp, type TestApi } from '../testing/test-api.js';

/** The value of one series in a scrape (0 when absent). */
function series(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.slice(name.length + 1)) : 0;
}

let api: TestApi;
const appWith = (env: { metricsToken?: string }) => secondApiApp(api, { config: { ...api.config, ...env } });

beforeAll(async () => {
  api = await createTestApi();
});
afterAll(() => api.close());

describe('GET /metrics of the API', () => {
  it('counts single sends by outcome code, and the request, after each send', async () => {
    const { auth } = await api.createTenant({ settings: { company_rpm: 100_000 }, key: { mode: 'test', rpm: 100_000 } });
    const scrape = async () => (await request(api.app).get('/metrics').expect(200)).text;
    const before = await scrape();
    const sent = await request(api.app).post('/v1/messages').set(auth).send({ phone: '+5511987650100', message: { text: 'Oi' } });
    expect(sent.status).toBe(201);
    // The simulator's number ending in 0002 has blocked the sender.
    await request(api.app).post('/v1/messages').set(auth).send({ phone: '+5511987650002', message: { text: 'Oi' } });
    const after = await scrape();
    const delta = (name: string) => series(after, name) - series(before, name);
    expect(delta('carteiro_channel_sends_total{outcome="sent",group="sent"}')).toBe(1);
    expect(delta('carteiro_channel_sends_total{outcome="RECIP_BLOCKED",group="recipient"}')).toBe(1);
    expect(delta('carteiro_channel_send_duration_seconds_count{group="sent"}')).toBe(1);
    expect(delta('carteiro_http_requests_total{method="POST",route="/v1/messages",status="201"}')).toBe(1);
  });

  it('shows the pools of the process and the depth of every declared queue, read at scrape time', async () => {
    const app = appWith({});
    // A job due in an hour: deferred, not ready.
    await api.boss.send('campaign-sweep', {}, { startAfter: 3_600 });
    const text = (await request(app).get('/metrics').expect(200)).text;
    expect(series(text, 'carteiro_db_pool_max_connections{pool="app"}')).toBe(10);
    expect(series(text, 'carteiro_db_pool_connections{pool="app"}')).toBeGreaterThan(0);
    expect(text).toMatch(/^carteiro_db_pool_waiting_requests\{pool="app"\} \d+$/m);
    expect(text).toMatch(/^carteiro_db_pool_connections\{pool="queue"\} \d+$/m);
    expect(series(text, 'carteiro_queue_jobs{queue="campaign-sweep",state="deferred"}')).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^carteiro_queue_jobs\{queue="campaign-start",state="ready"\} \d+$/m);
    expect(text).toMatch(/^carteiro_queue_oldest_ready_seconds\{queue="campaign-start"\} [\d.e+-]+$/m);
    expect(text).toMatch(/^carteiro_webhook_deliveries_pending\{state="due"\} \d+$/m);
    expect(text).toMatch(/^carteiro_webhook_outbox_backlog \d+$/m);
    // Process metrics of the runtime keep their prefix.
    expect(text).toContain('carteiro_process_cpu_seconds_total');
  });

  it('is open without METRICS_TOKEN, and with it asks for the bearer token (401 in the error envelope otherwise)', async () => {
    expect((await request(appWith({})).get('/metrics')).status).toBe(200);
    const app = appWith({ metricsToken: 'scrape-token-123' });
    const missing = await request(app).get('/metrics');
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: 'Missing or invalid metrics token' } });
    expect(missing.headers['www-authenticate']).toContain('Bearer');
    expect((await request(app).get('/metrics').set('Authorization', 'Bearer wrong-token')).status).toBe(401);
    expect((await request(app).get('/metrics').set('Authorization', 'Basic scrape-token-123')).status).toBe(401);
    const ok = await request(app).get('/metrics').set('Authorization', 'Bearer scrape-token-123');
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toContain('text/plain');
    expect(ok.text).toContain('carteiro_channel_sends_total');
    // The token guards /metrics only.
    expect((await request(app).get('/healthz')).status).toBe(200);
  });
});
