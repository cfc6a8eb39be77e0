import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { chromium, type BrowserContext } from 'playwright-core';
import { createTestApi, type TestApi } from '../testing/test-api.js';

/** Debian's Chromium; `.ci/run` installs it when missing. */
const CHROMIUM = '/usr/bin/chromium';

let api: TestApi;
let server: Server;
let base: string;
let context: BrowserContext;
let profile: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install Debian's Chromium (apt-get install -y chromium; .ci/run does it) to run the docs page test`);
  }
  api = await createTestApi();
  server = await new Promise<Server>((resolve) => {
    const s = api.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  profile = mkdtempSync(join(tmpdir(), 'carteiro-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}, 60_000);

afterAll(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  await api?.close();
});

it('renders the API reference at /docs from this server alone', async () => {
  const requested: string[] = [];
  const leftLocalhost: string[] = [];
  const refused: string[] = [];
  // Anything not for this server is recorded and never allowed out.
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (url.startsWith(`${base}/`)) {
      await route.continue();
    } else {
      leftLocalhost.push(url);
      await route.abort('blockedbyclient');
    }
  });
  const page = await context.newPage();
  page.on('request', (req) => requested.push(req.url()));
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/.test(message.text())) refused.push(message.text());
  });

  const response = await page.goto(`${base}/docs`);
  expect(response?.status()).toBe(200);

  for (const title of ['Send a message', 'Create a campaign', 'Read a campaign', 'Register a webhook', 'Create a channel instance', 'Read limits, capacity and balance']) {
    // Scalar renders the whole reference (about 150 operations) before the later titles show.
    await page.getByText(title, { exact: true }).first().waitFor({ state: 'visible', timeout: 90_000 });
  }
  const text = await page.locator('body').innerText();
  expect(text).toContain('/v1/messages');
  expect(text).toContain('Carteiro API');

  expect(leftLocalhost).toEqual([]);
  expect(refused).toEqual([]);
  expect(requested.filter((url) => !url.startsWith(`${base}/`) && !url.startsWith('data:') && !url.startsWith('blob:'))).toEqual([]);
  expect(requested).toContain(`${base}/v1/openapi.json`);
}, 180_000);

it("starts with the API key's bearer scheme selected: a pasted key goes straight into the requests", async () => {
  const page = await context.newPage();
  // Scalar keeps re-rendering the long reference for a while on a busy 2-core runner: the input exists before it is
  // stable and editable, so every action here waits as long as the page's first render may take.
  page.setDefaultTimeout(90_000);
  await page.goto(`${base}/docs`);
  // The page's own Authentication block (the client dialog, hidden until "Test Request", has one too).
  await page.getByText('Selected Auth Type:').filter({ visible: true }).first().waitFor({ state: 'visible', timeout: 60_000 });
  expect(await page.getByText('No authentication selected').count()).toBe(0);

  await page.getByLabel('Bearer Token').filter({ visible: true }).first().fill('ak_test_pasted0123');
  // The request examples (and "Test Request") now carry the key the way the API reads it.
  await page.waitForFunction("document.body.innerText.includes('Authorization: Bearer ak_test_pasted0123')", undefined, { timeout: 60_000 });
}, 240_000);
