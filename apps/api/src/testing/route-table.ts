import type { Express } from 'express';
import type { Scope } from '@carteiro/core';

interface Layer {
  route?: { path: string; methods: Record<string, boolean>; stack: { handle: { scope?: Scope } }[] };
  /** A router has a `stack`; the per-segment dispatch of `registerRoutes` names its routers. */
  handle: { stack?: Layer[]; segmentRouters?: { stack: Layer[] }[] };
  /** The path a router is mounted at (`app.use(path, router)`). */
  rawPath?: unknown;
}

/** The route layers of a router, with those of the routers behind a per-segment dispatch, in order. */
function routeLayers(stack: Layer[]): Layer[] {
  return stack.flatMap((layer) => (layer.route ? [layer] : (layer.handle.segmentRouters ?? []).flatMap((router) => routeLayers(router.stack))));
}

/** One route as Express has it registered, with the scope its guard demands. */
export interface RegisteredRoute {
  method: string;
  /** Full path, e.g. `/v1/campaigns/:id`. */
  path: string;
  scope: Scope | undefined;
}

function routesOf(router: Layer[], prefix: string): RegisteredRoute[] {
  return routeLayers(router).flatMap((layer) =>
    Object.keys(layer.route!.methods).map((method) => ({
      method,
      path: `${prefix}${layer.route!.path}`,
      scope: layer.route!.stack.map((l) => l.handle.scope).find((s) => s !== undefined),
    })),
  );
}

/**
 * Every route of the `/v1` and `/admin/v1` routers, read from Express's own route table, so that
 * tests covering "every route" cover the routes added later without being told.
 */
export function routeTable(app: Express): { v1: RegisteredRoute[]; admin: RegisteredRoute[] } {
  const root = (app as unknown as { router: { stack: Layer[] } }).router.stack;
  const routers = root.filter((layer) => layer.handle.stack && routeLayers(layer.handle.stack).length > 0);
  // By mount path, not position: app.ts mounts /admin/v1 first.
  const v1 = routers.find((layer) => layer.rawPath === '/v1');
  const admin = routers.find((layer) => layer.rawPath === '/admin/v1');
  if (!v1?.handle.stack || !admin?.handle.stack) throw new Error('the /v1 and /admin/v1 routers were not found');
  return { v1: routesOf(v1.handle.stack, '/v1'), admin: routesOf(admin.handle.stack, '/admin/v1') };
}

/** The path with every `:param` replaced. */
export function fillPath(path: string, value: (param: string) => string): string {
  return path.replace(/:([A-Za-z_]+)/g, (_m, name: string) => value(name));
}
