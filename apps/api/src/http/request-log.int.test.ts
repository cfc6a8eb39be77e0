import { expect, it } from '@jest/globals';
import express from 'express';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import request from 'supertest';
import { ProcessMetrics } from '@carteiro/metrics';
import { ApiMetrics, requestObservability } from './observability.js';

function loggedApp() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const logger = pino({ level: 'info', redact: { paths: ['*.authorization', 'token'], censor: '[redacted]' } }, sink);
  const app = express();
  app.use(requestObservability(logger, new ApiMetrics(new ProcessMetrics())));
  app.get('/logs', (req, res) => {
    req.log!.info({ token: 'secret-token', step: 1 }, 'route line');
    req.log!.info({ step: 2 }, 'route line');
    res.json({ ok: true });
  });
  app.get('/quiet', (_req, res) => {
    res.json({ ok: true });
  });
  return { app, lines };
}

it('given requests that log, then each line of req.log carries its own request id, still redacted', async () => {
  const { app, lines } = loggedApp();
  await request(app).get('/logs').set('X-Request-Id', 'first-1');
  await request(app).get('/quiet').set('X-Request-Id', 'between-2');
  await request(app).get('/logs').set('X-Request-Id', 'second-3');
  const routeLines = lines.filter((l) => l.msg === 'route line').map((l) => [l.reqId, l.step, l.token]);
  expect(routeLines).toEqual([
    ['first-1', 1, '[redacted]'],
    ['first-1', 2, undefined],
    ['second-3', 1, '[redacted]'],
    ['second-3', 2, undefined],
  ]);
  const access = lines.filter((l) => l.msg === 'request completed').map((l) => [l.reqId, (l.req as { url: string }).url]);
  expect(access).toEqual([
    ['first-1', '/logs'],
    ['between-2', '/quiet'],
    ['second-3', '/logs'],
  ]);
});
