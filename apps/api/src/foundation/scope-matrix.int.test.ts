import { afterAll, beforeAll, expect, it } from '@jest/globals';
import request from 'supertest';
import { Scopes, type Scope } from '@carteiro/core';
import { apiRoutes } from '../routes.js';
import { fillPath } from '../testing/route-table.js';
import { createTestApi, type TestApi } from '../testing/test-api.js';

let api: TestApi;
beforeAll(async () => {
  api = await createTestApi();
});
afterAll(() => api.close());

it('guards every /v1 route with a scope, and a key without it gets 403 FORBIDDEN', async () => {
  // Built from the route list: every /v1 route is a scoped one, and a new route is covered without being listed.
  const routes = apiRoutes
    .filter((r) => r.path.startsWith('/v1/') && r.auth !== 'public')
    .map((r) => ({ method: r.method, path: r.path, scope: typeof r.auth === 'object' ? r.auth.scope : undefined }));
  expect(routes.length).toBeGreaterThan(0);
  expect(routes.filter((r) => !r.scope)).toEqual([]);

  const company = await api.createCompany({ company_rpm: 100_000 });
  const keys = new Map<Scope, string>();
  for (const route of routes) {
    const scope = route.scope!;
    if (!keys.has(scope)) {
      keys.set(scope, await api.createKey(company.id, { scopes: Scopes.filter((s) => s !== scope), rpm: 100_000 }));
    }
    const path = fillPath(route.path, () => '00000000-0000-4000-8000-000000000001');
    const res = await request(api.app)
      [route.method as 'get'](path)
      .set('Authorization', `Bearer ${keys.get(scope)}`)
      .set('Content-Type', 'application/json')
      .send(route.method === 'get' || route.method === 'delete' ? undefined : '{}');
    expect({ route: `${route.method.toUpperCase()} ${route.path}`, status: res.status, code: res.body.error?.code }).toEqual({
      route: `${route.method.toUpperCase()} ${route.path}`,
      status: 403,
      code: 'FORBIDDEN',
    });
    expect(res.body.error.details).toEqual({ required_scope: scope });
  }
});
