import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from '@jest/globals';
import { buildConsole, JS_BUDGET_GZIP_BYTES } from '../build.mjs';

const dir = mkdtempSync(join(tmpdir(), 'carteiro-console-build-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('builds hashed files named by index.html, and measures the first page under the 200 kB gzip budget', async () => {
  const out = join(dir, 'dist');
  const result = await buildConsole({ outDir: out, quiet: true });
  expect(JS_BUDGET_GZIP_BYTES).toBe(200 * 1024);
  expect(result.jsGzipBytes).toBeGreaterThan(1_000);
  expect(result.jsGzipBytes).toBeLessThan(JS_BUDGET_GZIP_BYTES);
  expect(result.jsFile).toMatch(/^assets\/console-[A-Z0-9]{8}\.js$/);
  const html = readFileSync(join(out, 'index.html'), 'utf8');
  expect(html).toContain(`<script type="module" src="${result.jsFile}"></script>`);
  expect(html).toContain(`<link rel="stylesheet" href="${result.cssFile}">`);
  expect(existsSync(join(out, result.jsFile))).toBe(true);
  // Nothing from outside: no absolute URL in the page or its script.
  expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
  expect(readFileSync(join(out, result.jsFile), 'utf8')).not.toMatch(/https?:\/\/(?!www\.w3\.org)[a-z]/i);
}, 30_000);

it('fails, keeping the previous build, when the JavaScript grows past the budget', async () => {
  const out = join(dir, 'dist');
  const before = readFileSync(join(out, 'index.html'), 'utf8');
  await expect(buildConsole({ outDir: out, quiet: true, budgetGzipBytes: 1024 })).rejects.toThrow(/kB gzip, over the 1 kB budget/);
  expect(readFileSync(join(out, 'index.html'), 'utf8')).toBe(before);
}, 30_000);
