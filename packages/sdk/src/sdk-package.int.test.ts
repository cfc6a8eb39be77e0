import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
// The real service, in process, listening on a port: the installed SDK talks to it over HTTP like any client.
import { createTestApi, type TestApi } from '../../../apps/api/src/testing/test-api.js';

const run = promisify(execFile);
const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = join(packageDir, '../..');
const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');

/**
 * The child processes get the user's environment without what `npm run` and jest add: no npm_* settings of
 * this workspace (`npm_config_cache` excepted), no NODE_OPTIONS for jest's VM modules.
 */
function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key === 'NODE_OPTIONS' || (key.toLowerCase().startsWith('npm_') && key.toLowerCase() !== 'npm_config_cache')) continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

let api: TestApi;
let server: Server;
let baseUrl: string;
let apiKey: string;
let project: string;

beforeAll(async () => {
  api = await createTestApi();
  server = await new Promise<Server>((resolve) => {
    const s = api.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const company = await api.createCompany({ company_rpm: 10_000 });
  // A live key: test keys fail 5% of sends at random. Without a provider configured, live sends reach the simulator.
  apiKey = await api.createKey(company.id, { mode: 'live', rpm: 10_000 });
  const setor = await api.createSetor(company.id);
  await api.connectSetor(company.id, setor.id);
  // A project of its own, outside this repository: nothing of the workspace can be resolved from there.
  project = realpathSync(mkdtempSync(join(tmpdir(), 'carteiro-sdk-consumer-')));
}, 60_000);

afterAll(async () => {
  if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  await api?.close();
  if (project) rmSync(project, { recursive: true, force: true });
});

describe('@carteiro/sdk as a user gets it: npm pack, installed into a project outside the repository', () => {
  let tarball: string;

  it('packs built JavaScript and declarations, public dependencies only, nothing private', async () => {
    expect(relative(repoRoot, project).startsWith('..')).toBe(true);
    // `npm pack` builds first (prepack: tsc -b), as `npm publish` would.
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', project], { cwd: packageDir, env: childEnv(), maxBuffer: 16 << 20 });
    const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
    tarball = join(project, packed!.filename);
    expect(existsSync(tarball)).toBe(true);
    const files = packed!.files.map((f) => f.path);
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'dist/index.js',
        'dist/index.d.ts',
        'dist/schema.d.ts',
        'dist/webhook-signature.js',
        'dist/webhook-signature.d.ts',
        'examples/send-and-campaign.mjs',
      ]),
    );
    expect(files.filter((f) => /\.test\.|tsbuildinfo|codegen\/|scripts\//.test(f))).toEqual([]);

    const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
      private?: boolean;
      dependencies: Record<string, string>;
      exports: Record<string, unknown>;
    };
    expect(manifest.private).toBeUndefined();
    expect(Object.keys(manifest.dependencies).filter((name) => name.startsWith('@carteiro/'))).toEqual([]);
    expect(manifest.exports['.']).toEqual({ types: './dist/index.d.ts', default: './dist/index.js' });
  }, 120_000);

  it('installs into the outside project with its public dependencies only', async () => {
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'sdk-consumer', version: '1.0.0', private: true, type: 'module' }, null, 2));
    // The cache is enough (openapi-fetch is installed in this repository); the registry only if it is not.
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], {
      cwd: project,
      env: childEnv(),
      maxBuffer: 16 << 20,
    });
    const installed = join(project, 'node_modules');
    expect(existsSync(join(installed, '@carteiro/sdk/dist/index.js'))).toBe(true);
    expect(existsSync(join(installed, 'openapi-fetch/package.json'))).toBe(true);
    // A real copy, not a link back into the workspace, and no internal package came with it.
    expect(realpathSync(join(installed, '@carteiro/sdk')).startsWith(project)).toBe(true);
    expect(existsSync(join(installed, '@carteiro/core'))).toBe(false);
  }, 120_000);

  it('runs a script there that calls the API and verifies a real signed webhook delivery', async () => {
    writeFileSync(join(project, 'consumer.mjs'), CONSUMER);
    const { stdout } = await run(process.execPath, ['consumer.mjs'], { cwd: project, env: childEnv({ BASE_URL: baseUrl, API_KEY: apiKey }) });
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(result).toMatchObject({
      exports: ['CarteiroApiError', 'WEBHOOK_TOLERANCE_SECONDS', 'createCarteiroClient', 'readWebhook', 'signWebhookPayload', 'unwrap', 'verifyWebhookSignature'],
      limits: { has_daily: true },
      missing: { isApiError: true, status: 404, code: 'NOT_FOUND' },
      test: { delivered: true, status_code: 204 },
      read: { valid: true, event: 'webhook.test' },
      lowLevel: { valid: true },
      tampered: { valid: false, reason: 'signature_mismatch' },
      wrongSecret: { valid: false, reason: 'signature_mismatch' },
      deleted: true,
    });
    expect((result.read as { id: string }).id).toBe((result.test as { delivery_id: string }).delivery_id);
  }, 60_000);

  it('type-checks a TypeScript consumer against the packed declarations', async () => {
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: CONSUMER_TSCONFIG, files: ['consumer.ts'] }, null, 2));
    writeFileSync(join(project, 'consumer.ts'), TS_CONSUMER);
    const answer = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project, env: childEnv() }).catch((e: { stdout: string }) => e);
    expect(answer.stdout).toBe('');
  }, 60_000);

  it("runs the package's example there as plain JavaScript, which cancels the campaign it created", async () => {
    copyFileSync(join(project, 'node_modules/@carteiro/sdk/examples/send-and-campaign.mjs'), join(project, 'send-and-campaign.mjs'));
    const { stdout } = await run(process.execPath, ['send-and-campaign.mjs'], {
      cwd: project,
      env: childEnv({ BASE_URL: baseUrl, API_KEY: apiKey, PHONE: '+5511987654321' }),
    });
    const id = /campaign (\S+) queued/.exec(stdout)?.[1];
    expect(id).toBeDefined();
    expect(stdout).toContain(`campaign ${id} cancelled, 2 pending messages skipped`);
    // Nothing of it stays scheduled: the company's only campaign is cancelled (finished, its messages skipped).
    const listed = (await (await fetch(`${baseUrl}/v1/campaigns`, { headers: { Authorization: `Bearer ${apiKey}` } })).json()) as {
      data: { items: { id: string; status: string; cancelled_by_user?: boolean }[] };
    };
    expect(listed.data.items.map((c) => c.id)).toEqual([id]);
    expect(listed.data.items[0]!.status).not.toMatch(/^(pendente|processando|pausado)$/);
  }, 60_000);
});

const CONSUMER = `import { createServer } from 'node:http';
import * as sdk from '@carteiro/sdk';
const { CarteiroApiError, createCarteiroClient, readWebhook, unwrap, verifyWebhookSignature } = sdk;

const client = createCarteiroClient({ baseUrl: process.env.BASE_URL, apiKey: process.env.API_KEY });
const limits = await unwrap(client.GET('/v1/limits'));
const missing = await unwrap(client.GET('/v1/campaigns/{id}', { params: { path: { id: crypto.randomUUID() } } })).catch((e) => e);

let received;
const receiver = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    received = { headers: req.headers, body: Buffer.concat(chunks) };
    res.statusCode = 204;
    res.end();
  });
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
try {
  const url = 'http://127.0.0.1:' + receiver.address().port + '/hooks';
  const webhook = await unwrap(client.POST('/v1/webhooks', { body: { url, events: ['message.sent'] } }));
  // The test endpoint delivers one signed webhook.test event before it answers.
  const test = await unwrap(client.POST('/v1/webhooks/{id}/test', { params: { path: { id: webhook.id } } }));
  const read = readWebhook({ secret: webhook.secret, rawBody: received.body, headers: received.headers });
  const tampered = readWebhook({ secret: webhook.secret, rawBody: Buffer.concat([received.body, Buffer.from(' ')]), headers: received.headers });
  const check = (secret) => verifyWebhookSignature({
    secret,
    rawBody: received.body,
    timestamp: received.headers['x-webhook-timestamp'],
    signature: received.headers['x-webhook-signature'],
    nowSeconds: Math.floor(Date.now() / 1000),
  });
  const deleted = await client.DELETE('/v1/webhooks/{id}', { params: { path: { id: webhook.id } } });
  console.log(JSON.stringify({
    exports: Object.keys(sdk).sort(),
    limits: { has_daily: typeof limits.daily.limit !== 'undefined' },
    missing: { isApiError: missing instanceof CarteiroApiError, status: missing.status, code: missing.code },
    test,
    read: read.valid ? { valid: true, id: read.id, event: read.event.event } : read,
    lowLevel: check(webhook.secret),
    tampered,
    wrongSecret: check('f'.repeat(64)),
    deleted: deleted.response.ok,
  }));
} finally {
  receiver.close();
}
`;

const CONSUMER_TSCONFIG = {
  target: 'ES2022',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  lib: ['ES2022', 'DOM'],
  types: [],
  strict: true,
  noEmit: true,
  skipLibCheck: true,
};

const TS_CONSUMER = `import { createCarteiroClient, readWebhook, unwrap, type Schema, type WebhookEvent } from '@carteiro/sdk';

const client = createCarteiroClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: 'ak_test_x' });
export async function progress(id: string): Promise<number> {
  const campaign: Schema<'CampaignDetail'> = await unwrap(client.GET('/v1/campaigns/{id}', { params: { path: { id } } }));
  return campaign.progress;
}
export async function wrong(): Promise<void> {
  // @ts-expect-error the path does not exist: the client is typed, not any
  await client.GET('/v1/no-such-path');
  // @ts-expect-error the body lacks message
  await client.POST('/v1/messages', { body: { phone: '+5511987654321' } });
}
export function onDelivery(rawBody: string, headers: Record<string, string>): WebhookEvent | null {
  const delivery = readWebhook({ secret: 's', rawBody, headers });
  return delivery.valid ? delivery.event : null;
}
`;
