import { describe, expect, it } from '@jest/globals';
import express from 'express';
import request from 'supertest';
import { sendJson } from './envelope.js';

/** Two routes answering the same body, one through sendJson and one through Express's res.json. */
function appAnswering(body: unknown, status: number) {
  const app = express();
  app.set('etag', false);
  app.get('/lean', (_req, res) => sendJson(res, body, status));
  app.get('/express', (_req, res) => {
    res.status(status).json(body);
  });
  return app;
}

const compared = (res: request.Response) => ({
  status: res.status,
  type: res.headers['content-type'],
  length: res.headers['content-length'],
  text: res.text,
});

describe('sendJson', () => {
  const bodies: [string, unknown, number][] = [
    ['a small envelope', { success: true, data: { id: 'a', n: 1 } }, 200],
    ['an answer over 1 kB with non-ASCII text', { success: true, data: { text: 'ção '.repeat(400) } }, 201],
    ['a raw array', [1, 2, 3], 200],
    ['no content', { success: true, data: null }, 204],
  ];
  it.each(bodies)('given %s, then the answer is byte for byte the one res.json gives', async (_label, body, status) => {
    const app = appAnswering(body, status);
    const lean = await request(app).get('/lean');
    const viaExpress = await request(app).get('/express');
    expect(compared(lean)).toEqual(compared(viaExpress));
  });

  it('given a HEAD request, then the headers are those of the GET and there is no body', async () => {
    const app = appAnswering({ success: true, data: { id: 'a' } }, 200);
    const lean = await request(app).head('/lean');
    const viaExpress = await request(app).head('/express');
    expect(compared(lean)).toEqual(compared(viaExpress));
    expect(lean.headers['content-length']).toBe(String(Buffer.byteLength(JSON.stringify({ success: true, data: { id: 'a' } }))));
  });

  it('given a conditional request, then Express answers it (If-None-Match: * is fresh: 304)', async () => {
    const app = appAnswering({ success: true, data: { id: 'a' } }, 200);
    const lean = await request(app).get('/lean').set('If-None-Match', '*');
    const viaExpress = await request(app).get('/express').set('If-None-Match', '*');
    expect(lean.status).toBe(viaExpress.status);
    expect(compared(lean)).toEqual(compared(viaExpress));
  });

  it('given a Content-Type the handler chose, then it is kept', async () => {
    const app = express();
    app.get('/lean', (_req, res) => {
      res.type('application/problem+json');
      sendJson(res, { title: 'x' }, 400);
    });
    const res = await request(app).get('/lean');
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(res.text).toBe('{"title":"x"}');
  });
});
