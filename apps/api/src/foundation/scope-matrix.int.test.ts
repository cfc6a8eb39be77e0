import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Express } from 'express';
import request from 'supertest';
import { Scopes, type Scope } from '@carteiro/core';
import { createTestApi, type TestApi } from '../testing/test-api.js';

interface Layer {
  route?: { path: string; methods: Record<string, boolean>; stack: { handle: { scope?: Scope } }[] };
  handle: { stack?: Layer[] };
  matchers?: unknown;
}

/** Every route of the /v1 router with the scope its guard demands (read from Express's own route table). */
function v1Routes(app: Express): { method: string; path: string; scope: Scope | undefined }[] {
  const root = (app as unknown as { router: { stack: Layer[] } }).router.stack;
  const routers = root.filter((layer) => layer.handle.stack && layer.handle.stack.some((l) => l.route));
  const v1 = routers[0];
  if (!v1?.handle.stack) throw new Error('the /v1 router was not found');
  return v1.handle.stack
    .filter((layer) => layer.route)
    .flatMap((layer) =>
      Object.keys(layer.route!.methods).map((method) => ({
        method,
        path: layer.route!.path,
        scope: layer.route!.stack.map((l) => l.handle.scope).find((s) => s !== undefined),
      })),
    );
}

let api: TestApi;
beforeAll(async () => {
  api = await createTestApi();
});
afterAll(() => api.close());

it('guards every /v1 route with a scope, and a key without it gets 403 FORBIDDEN', async () => {
  const routes = v1Routes(api.app);
  expect(routes.length).toBeGreaterThan(0);
  const unguarded = routes.filter((r) => !r.scope);
  expect(unguarded).toEqual([]);

  const company = await api.createCompany({ company_rpm: 100_000 });
  const keys = new Map<Scope, string>();
  for (const route of routes) {
    const scope = route.scope!;
    if (!keys.has(scope)) {
      keys.set(scope, await api.createKey(company.id, { scopes: Scopes.filter((s) => s !== scope), rpm: 100_000 }));
    }
    const path = `/v1${route.path.replace(/:[a-z_]+/gi, '00000000-0000-4000-8000-000000000001')}`;
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
