import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import type { RouteDefinition } from '../http/route.js';
import type { JsonSchema } from '../http/schema.js';
import { apiRoutes } from '../routes.js';
import { fillPath } from '../testing/route-table.js';
import { isInteger, isString, schemaFields, valueAt } from '../testing/request-fields.js';
import { createTestApi, type TestApi } from '../testing/test-api.js';

/**
 * Values PostgreSQL refuses, sent to every route of the route list (so a route added later is
 * covered without being named here): U+0000 in each string field of its body and query, and
 * integers beyond what the field's column holds. Each must be a 400 naming the field, never a 500.
 */
let api: TestApi;
let key: string;

beforeAll(async () => {
  api = await createTestApi();
  const company = await api.createCompany({ company_rpm: 1_000_000 });
  key = await api.createKey(company.id, { scopes: ['*'], rpm: 100_000 });
}, 60_000);
afterAll(() => api.close());

interface Probe {
  route: RouteDefinition;
  field: string;
  query?: Record<string, string>;
  body?: unknown;
}

const NUL = 'a\u0000b';
/** Above the signed 32-bit range, and above JavaScript's exact integers. */
const tooBig = (schema: JsonSchema): number[] => {
  const maximum = typeof schema.maximum === 'number' ? schema.maximum : Number.MAX_SAFE_INTEGER;
  return [...new Set([2 ** 31, 2 ** 53, maximum + 1].filter((n) => n > maximum))];
};

/** A valid RFC 3339 instant that JavaScript's Date cannot hold (a leap second). */
const LEAP_SECOND = '2026-12-31T23:59:60Z';
const isDateTime = (schema: JsonSchema) => isString(schema) && schema.format === 'date-time';

function probes(route: RouteDefinition): { nul: Probe[]; integers: (Probe & { value: number })[]; instants: Probe[] } {
  const nul: Probe[] = [];
  const integers: (Probe & { value: number })[] = [];
  const instants: Probe[] = [];
  // Every route, with a query schema or not, refuses NUL in its query string.
  nul.push({ route, field: 'x_probe', query: { x_probe: NUL } });
  if (route.query) {
    for (const { path, schema } of schemaFields(route.query)) {
      const name = path[0]!;
      if (isString(schema)) nul.push({ route, field: name, query: { [name]: NUL } });
      if (isInteger(schema)) for (const value of tooBig(schema)) integers.push({ route, field: name, query: { [name]: String(value) }, value });
      if (isDateTime(schema)) instants.push({ route, field: name, query: { [name]: LEAP_SECOND } });
    }
  }
  if (route.body) {
    for (const { path, schema } of schemaFields(route.body.schema)) {
      // A key of a free-form object: the NUL goes in the key's value, named by the key.
      const field = path.join('.');
      if (isString(schema)) nul.push({ route, field, body: valueAt(path, NUL) });
      if (isInteger(schema)) for (const value of tooBig(schema)) integers.push({ route, field, body: valueAt(path, value), value });
      if (isDateTime(schema)) instants.push({ route, field, body: valueAt(path, LEAP_SECOND) });
    }
  }
  return { nul, integers, instants };
}

async function send(probe: Probe) {
  const { route } = probe;
  const path = fillPath(route.path, () => crypto.randomUUID());
  let req = request(api.app)[route.method](path).query(probe.query ?? {});
  if (route.auth === 'admin') req = req.set(api.adminAuth);
  else if (route.auth !== 'public') req = req.set('Authorization', `Bearer ${key}`);
  if (probe.body !== undefined) req = req.send(probe.body as object);
  return req;
}

/** What the answer says about the field: status, code and whether `details` names it. */
async function outcome(probe: Probe) {
  const res = await send(probe);
  const details = res.body?.error?.details as { field?: string; errors?: { field: string }[] } | undefined;
  const named = details?.field === probe.field || (details?.errors ?? []).some((e) => e.field === probe.field);
  return { route: `${probe.route.method.toUpperCase()} ${probe.route.path}`, field: probe.field, status: res.status, code: res.body?.error?.code, named };
}

describe('every route of the route list', () => {
  it('answers U+0000 in any string of its query or body with 400 VALIDATION_ERROR naming the field', async () => {
    const all = apiRoutes.flatMap((route) => probes(route).nul);
    expect(all.length).toBeGreaterThan(apiRoutes.length * 2);
    const wrong = [];
    for (const probe of all) {
      const result = await outcome(probe);
      const expected = { ...result, status: 400, code: 'VALIDATION_ERROR', named: true };
      if (JSON.stringify(result) !== JSON.stringify(expected)) wrong.push(result);
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('answers integers above what the field holds (2^31, 2^53) with a 400 naming the field, never a 500', async () => {
    const all = apiRoutes.flatMap((route) => probes(route).integers);
    expect(all.some((p) => p.value === 2 ** 31)).toBe(true);
    const wrong = [];
    for (const probe of all) {
      const result = await outcome(probe);
      // The specification keeps BAD_REQUEST for malformed bodies on some routes (the send routes).
      const expected = { ...result, status: 400, code: probe.route.validationCode ?? 'VALIDATION_ERROR', named: true };
      if (JSON.stringify(result) !== JSON.stringify(expected)) wrong.push({ ...result, value: probe.value });
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('answers an instant JavaScript cannot hold (a leap second) in any date-time field with a 400 naming the field, never a 500', async () => {
    const all = apiRoutes.flatMap((route) => probes(route).instants);
    expect(all.length).toBeGreaterThan(10);
    const wrong = [];
    for (const probe of all) {
      const result = await outcome(probe);
      const expected = { ...result, status: 400, code: probe.route.validationCode ?? 'VALIDATION_ERROR', named: true };
      if (JSON.stringify(result) !== JSON.stringify(expected)) wrong.push(result);
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('refuses U+0000 in the fields the issue names: a message text, a webhook URL, a campaign name and a recipient search', async () => {
    const authed = { Authorization: `Bearer ${key}` };
    const cases = [
      { res: await request(api.app).post('/v1/messages').set(authed).send({ phone: '+5511987654321', message: { text: NUL } }), field: 'message.text' },
      { res: await request(api.app).post('/v1/webhooks').set(authed).send({ url: `https://example.org/${NUL}`, events: ['message.sent'] }), field: 'url' },
      {
        res: await request(api.app).post('/v1/campaigns').set(authed).send({ name: NUL, recipients: [{ phone: '+5511987654321' }], message: { text: 'x' } }),
        field: 'name',
      },
      { res: await request(api.app).get(`/v1/campaigns/${crypto.randomUUID()}/recipients?q=a%00b`).set(authed), field: 'q' },
      { res: await request(api.app).patch(`/admin/v1/companies/${crypto.randomUUID()}`).set(api.adminAuth).send({ name: NUL }), field: 'name' },
    ];
    expect(cases.map(({ res, field }) => [field, res.status, res.body.error?.code, res.body.error?.details?.field])).toEqual(
      cases.map(({ field }) => [field, 400, 'VALIDATION_ERROR', field]),
    );
  });

  it('answers a query name the route does not declare (a misspelt filter) with a 400 naming it, on every route with query parameters but the public ones', async () => {
    const routes = apiRoutes.filter((route) => route.query && route.auth !== 'public');
    expect(routes.length).toBeGreaterThan(30);
    const wrong = [];
    for (const route of routes) {
      const result = await outcome({ route, field: 'stauts', query: { stauts: 'open' } });
      const expected = { ...result, status: 400, code: route.validationCode ?? 'VALIDATION_ERROR', named: true };
      if (JSON.stringify(result) !== JSON.stringify(expected)) wrong.push(result);
    }
    expect(wrong).toEqual([]);
  }, 120_000);
});
