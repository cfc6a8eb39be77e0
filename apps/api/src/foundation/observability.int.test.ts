import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Express } from 'express';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import request from 'supertest';
import { createTestApi, secondApiApp, type TestApi } from '../testing/test-api.js';

let api: TestApi;
const lines: Record<string, unknown>[] = [];
let app: Express;

beforeAll(async () => {
  api = await createTestApi();
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const logger = pino({ level: 'info', redact: { paths: ['req.headers.authorization', '*.authorization'], censor: '[redacted]' } }, sink);
  app = secondApiApp(api, { logger });
});
afterAll(() => api.close());

it('logs one line per request with its request id and never the key', async () => {
  const company = await api.createCompany();
  const key = await api.createKey(company.id);
  const res = await request(app).get('/v1/limits').set('Authorization', `Bearer ${key}`).set('X-Request-Id', 'trace-123');
  expect(res.headers['x-request-id']).toBe('trace-123');
  const generated = await request(app).get('/healthz');
  expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  const line = lines.find((l) => l.reqId === 'trace-123');
  expect(line).toMatchObject({ req: { method: 'GET', url: '/v1/limits' }, res: { statusCode: 200 } });
  expect(JSON.stringify(lines)).not.toContain(key);
});

it('exposes Prometheus metrics with requests by route pattern and status', async () => {
  const company = await api.createCompany();
  const key = await api.createKey(company.id);
  await request(app).get('/v1/limits').set('Authorization', `Bearer ${key}`);
  await request(app).get('/v1/limits');
  const res = await request(app).get('/metrics');
  expect(res.status).toBe(200);
  expect(res.text).toMatch(/carteiro_http_requests_total\{method="GET",route="\/v1\/limits",status="200"\} [1-9]\d*$/m);
  expect(res.text).toMatch(/carteiro_http_requests_total\{method="GET",route="unmatched",status="401"\} 1/);
  expect(res.text).toContain('carteiro_http_request_duration_seconds_bucket');
});
