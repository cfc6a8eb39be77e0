import { afterAll, beforeAll, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiRoutes } from '../routes.js';
import { fillPath, type RegisteredRoute } from '../testing/route-table.js';
import { createTestApi, type TestApi } from '../testing/test-api.js';

/**
 * Sends at least 10,000 generated and malformed requests across every route and fails on any
 * 5xx (but a 502 PROVIDER_ERROR, which a send to a failing provider legitimately answers) or
 * any answer that is not the specification's envelope.
 */
const RUNS = 10_000;

let api: TestApi;
let server: Server;
let base: string;
let liveKey: string;
let testKey: string;
let routes: RegisteredRoute[];

beforeAll(async () => {
  api = await createTestApi({ env: { SIMULATOR_SCAN_DELAY_MS: '0' } });
  const company = await api.createCompany({ company_rpm: 1_000_000, modality: 'avulso', avulso_balance: 1_000 });
  liveKey = await api.createKey(company.id, { mode: 'live', rpm: 100_000 });
  testKey = await api.createKey(company.id, { mode: 'test', rpm: 100_000 });
  const setor = await api.createSetor(company.id);
  await api.connectSetor(company.id, setor.id);
  // Every route of the route list (but the raw OpenAPI document, which is no envelope): one added later is fuzzed without being named here.
  routes = [
    ...apiRoutes.filter((r) => !r.response.raw).map((r) => ({ method: r.method, path: r.path, scope: typeof r.auth === 'object' ? r.auth.scope : undefined })),
    { method: 'get', path: '/healthz', scope: undefined },
    { method: 'get', path: '/nowhere/:id', scope: undefined },
  ];
  server = await new Promise<Server>((resolve) => {
    const s = api.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  await api.close();
});

const fieldNames = [
  'phone', 'client_id', 'setor_id', 'setor_ids', 'team_id', 'multi_number', 'message', 'text', 'media_url', 'media_type',
  'media_delivery', 'template_name', 'template_language', 'template_components', 'interactive', 'event', 'poll', 'name',
  'recipients', 'options', 'schedule_at', 'anti_ban_level', 'distribution', 'url', 'events', 'active', 'scopes', 'mode',
  'rpm', 'nome', 'channel_type', 'safe_hours', 'modality', 'avulso_balance', 'tags', 'detailIds', 'all_failures', 'emoji',
  'grace_seconds', 'warming_daily_limit', 'title', 'description', 'variants', 'callback_url', 'numbers', 'picture_url',
];

const text = fc.oneof(
  fc.string(),
  fc.constantFrom('', ' ', '0', '-1', '1e309', 'NaN', 'null', 'true', '+5511999990001', '5511999990004', '(11) 99999-0005',
    'https://example.com/a.png', 'http://127.0.0.1/x', 'image', 'audio', 'button', 'list', 'seguro', 'muito_lento', '*',
    '00000000-0000-4000-8000-000000000001', '9'.repeat(400), '{{nome}}', '<script>', '\u0000', '😀'.repeat(30)),
);
const jsonish: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...fieldNames), tie('value'), { maxKeys: 6 }),
  ),
})).value;

const body = fc.oneof(
  fc.dictionary(fc.constantFrom(...fieldNames), jsonish, { maxKeys: 8 }).map((o) => ({ raw: JSON.stringify(o) })),
  jsonish.map((v) => ({ raw: JSON.stringify(v) ?? 'null' })),
  fc.constantFrom('{', '[1,', '{"a":}', 'nul', '"\\u12"', '{}}', '\u0000', '{"recipients": [' + '{},'.repeat(50) + ']').map((raw) => ({ raw })),
  fc.constant({ raw: undefined as string | undefined }),
);

const param = fc.oneof(
  fc.uuid().map(String),
  fc.constantFrom('not-a-uuid', '0', '-1', '..', '%00', 'a'.repeat(300), '00000000-0000-4000-8000-000000000001'),
  fc.string({ minLength: 1, maxLength: 20 }).map(encodeURIComponent),
);

const query = fc.dictionary(
  fc.constantFrom('page', 'limit', 'status', 'q', 'include_history', 'history_minutes', 'to', 'setor_id', 'company_id'),
  fc.oneof(text, fc.integer().map(String)),
  { maxKeys: 3 },
);

const request = fc.record({
  route: fc.integer({ min: 0, max: 10_000 }),
  param,
  query,
  body,
  contentType: fc.constantFrom('application/json', 'application/json', 'application/json', 'text/plain', 'application/json; charset=latin1', null),
  auth: fc.constantFrom('live', 'live', 'test', 'none', 'garbage'),
});

it(`answers ${RUNS} generated and malformed requests with the envelope and never a 5xx`, async () => {
  let sent = 0;
  await fc.assert(
    fc.asyncProperty(request, async (r) => {
      const route = routes[r.route % routes.length]!;
      const path = fillPath(route.path, () => r.param);
      const search = new URLSearchParams(r.query as Record<string, string>).toString();
      const headers: Record<string, string> = {};
      if (r.contentType && r.body.raw !== undefined) headers['Content-Type'] = r.contentType;
      const admin = route.path.startsWith('/admin');
      if (r.auth === 'live' || r.auth === 'test') {
        headers.Authorization = `Bearer ${admin ? 'test-admin-token-0123456789' : r.auth === 'live' ? liveKey : testKey}`;
      } else if (r.auth === 'garbage') {
        headers.Authorization = 'Bearer ak_live_garbage';
      }
      const method = route.method.toUpperCase();
      const res = await fetch(`${base}${path}${search ? `?${search}` : ''}`, {
        method,
        headers,
        body: method === 'GET' || method === 'HEAD' ? undefined : r.body.raw,
      });
      sent += 1;
      const raw = await res.text();
      // A path that normalises to `/` (such as `/nowhere/..`) lands on the console's page (docs/console.md), not the API.
      const landed = new URL(res.url).pathname;
      if (landed === '/' || landed.startsWith('/console/')) return;
      let parsed: { success?: unknown; error?: { code?: unknown; message?: unknown }; status?: unknown } | null = null;
      try {
        parsed = JSON.parse(raw);
      } catch {
        parsed = null;
      }
      const where = `${method} ${path}?${search} ${r.contentType} ${r.body.raw?.slice(0, 200)} -> ${res.status} ${raw.slice(0, 300)}`;
      const providerError = res.status === 502 && parsed?.error?.code === 'PROVIDER_ERROR';
      if (res.status >= 500 && !providerError) throw new Error(`5xx: ${where}`);
      if (path === '/healthz') return;
      if (!parsed || typeof parsed.success !== 'boolean') throw new Error(`not an envelope: ${where}`);
      if (parsed.success === false && (typeof parsed.error?.code !== 'string' || typeof parsed.error?.message !== 'string')) {
        throw new Error(`error without code and message: ${where}`);
      }
    }),
    { numRuns: RUNS, seed: Number(process.env.FUZZ_SEED ?? 20261121), endOnFailure: true },
  );
  expect(sent).toBeGreaterThanOrEqual(RUNS);
}, 600_000);
