import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from '@jest/globals';
import express from 'express';
import request from 'supertest';
import { registerConsole } from './console-static.js';

const dir = mkdtempSync(join(tmpdir(), 'carteiro-console-static-'));
mkdirSync(join(dir, 'assets'));
writeFileSync(join(dir, 'index.html'), '<!doctype html><title>console</title><script type="module" src="assets/console-ABC123.js"></script>');
writeFileSync(join(dir, 'assets', 'console-ABC123.js'), 'console.log(1)');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function app(folder: string) {
  const a = express();
  registerConsole(a, folder);
  return a;
}

it('redirects / and /console to /console/, which serves the index revalidated on every visit, behind a same-origin policy', async () => {
  const root = await request(app(dir)).get('/');
  expect(root.status).toBe(302);
  expect(root.headers['location']).toBe('/console/');
  const bare = await request(app(dir)).get('/console?x=1');
  expect(bare.status).toBe(301);
  expect(bare.headers['location']).toBe('/console/');

  const index = await request(app(dir)).get('/console/');
  expect(index.status).toBe(200);
  expect(index.headers['content-type']).toMatch(/^text\/html/);
  expect(index.headers['cache-control']).toBe('no-cache');
  expect(index.headers['content-security-policy']).toContain("default-src 'self'");
  expect(index.headers['content-security-policy']).toContain("connect-src 'self'");
  expect(index.text).toContain('assets/console-ABC123.js');
});

it('serves hashed assets as immutable for a year, and 404s a missing one', async () => {
  const asset = await request(app(dir)).get('/console/assets/console-ABC123.js');
  expect(asset.status).toBe(200);
  expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(asset.headers['content-type']).toMatch(/javascript/);
  expect((await request(app(dir)).get('/console/assets/console-OLD.js')).status).toBe(404);
});

it('answers a clear 503 page saying how to build it when the console is not built', async () => {
  const res = await request(app(join(dir, 'missing'))).get('/console/');
  expect(res.status).toBe(503);
  expect(res.headers['cache-control']).toBe('no-cache');
  expect(res.text).toContain('The console is not built');
  expect(res.text).toContain('npm run build -w @carteiro/console');
});
