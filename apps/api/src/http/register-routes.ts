import { Router, type Express, type Request, type RequestHandler, type Response } from 'express';
import type { Container, ServiceIdentifier } from 'inversify';
import { auth, requireScope } from './auth.js';
import { ok, sendJson } from './envelope.js';
import { Reply, type RouteContext, type RouteDefinition } from './route.js';
import type { JsonSchema } from './schema.js';
import { problemsOf, refuseNul, validationFailure } from './validation.js';

/** Where the mount point of each kind of route strips its prefix. */
const V1 = '/v1';
const ADMIN = '/admin/v1';

function types(schema: JsonSchema): string[] {
  const type = schema.type;
  return Array.isArray(type) ? (type as string[]) : typeof type === 'string' ? [type] : [];
}

/** Query strings are text: numbers and booleans the schema asks for are converted before validation. */
function coerceQuery(schema: JsonSchema | undefined, raw: Record<string, unknown>): Record<string, unknown> {
  const query: Record<string, unknown> = { ...raw };
  const properties = (schema?.properties ?? {}) as Record<string, JsonSchema>;
  for (const [name, property] of Object.entries(properties)) {
    const value = query[name];
    if (typeof value !== 'string') continue;
    const wanted = types(property);
    if ((wanted.includes('integer') || wanted.includes('number')) && /^-?\d+(\.\d+)?$/.test(value)) query[name] = Number(value);
    else if (wanted.includes('boolean') && (value === 'true' || value === 'false')) query[name] = value === 'true';
  }
  return query;
}

/**
 * The query schema a request is checked against: closed to names the route does not declare (a misspelt filter such
 * as `?stauts=open` is a 400 naming it, not a page that silently ignores it), as bodies are. Public routes, which
 * providers call with parameters of their own, and schemas that say otherwise keep theirs.
 */
const closedQueries = new WeakMap<RouteDefinition, JsonSchema>();
function querySchemaOf(route: RouteDefinition): JsonSchema {
  const declared = route.query as JsonSchema;
  if (route.auth === 'public' || 'additionalProperties' in declared) return declared;
  let closed = closedQueries.get(route);
  if (!closed) closedQueries.set(route, (closed = { ...declared, additionalProperties: false }));
  return closed;
}

/** The validated input of a request, or a thrown 400/404. */
export function readRequest(route: RouteDefinition, req: Request) {
  const code = route.validationCode ?? 'VALIDATION_ERROR';
  const params: Record<string, string> = {};
  for (const [name, spec] of Object.entries(route.params ?? {})) {
    const value = String(req.params[name] ?? '');
    const problems = problemsOf(spec.schema, value, name);
    if (problems.errors.length > 0) throw spec.malformed ? spec.malformed(value) : validationFailure(problems, code);
    params[name] = spec.schema.format === 'uuid' ? value.toLowerCase() : value;
  }
  refuseNul(params);

  const headers: Record<string, string | undefined> = {};
  for (const [name, spec] of Object.entries(route.headers ?? {})) {
    const value = req.get(name);
    refuseNul(value, name);
    if (value === undefined) {
      if (spec.required) throw validationFailure({ errors: [{ field: name, message: 'is required' }] }, code);
      continue;
    }
    const problems = problemsOf(spec.schema, value, name);
    if (problems.errors.length > 0) throw validationFailure(problems, code);
    headers[name] = value;
  }

  const rawQuery = { ...(req.query as Record<string, unknown>) };
  refuseNul(rawQuery);
  let query: Record<string, unknown> = rawQuery;
  if (route.query) {
    query = coerceQuery(route.query, rawQuery);
    const problems = problemsOf(querySchemaOf(route), query);
    if (problems.errors.length > 0) throw validationFailure(problems, code);
  }

  let body: unknown;
  if (route.body) {
    body = req.body ?? {};
    refuseNul(body);
    const problems = problemsOf(route.body.schema, body);
    if (problems.errors.length > 0) throw validationFailure(problems, code);
  }
  return { params, query, body, headers };
}

function handlerOf(route: RouteDefinition, container: Container): RequestHandler {
  const services = new Map<ServiceIdentifier<unknown>, unknown>();
  const use = <T>(token: ServiceIdentifier<T>): T => {
    if (!services.has(token)) services.set(token, container.get<T>(token));
    return services.get(token) as T;
  };
  return async (req: Request, res: Response) => {
    const input = readRequest(route, req);
    // Named fields, not `{ ...input, … }`: on Node 20 a spread followed by more properties makes a new
    // hidden class for every object (microseconds a request, and garbage).
    const context: RouteContext<Record<string, string>, unknown, unknown> = {
      params: input.params,
      query: input.query,
      body: input.body,
      headers: input.headers,
      get principal() {
        return auth(req);
      },
      req,
      res,
      use,
    };
    const result = await route.handler(context);
    if (res.headersSent) return;
    const { status, raw } = route.response;
    if (result instanceof Reply) ok(res, result.data, result.options.status ?? status, result.options.meta);
    else if (raw) sendJson(res, result, status);
    else ok(res, result, status);
  };
}

/** The Express path of a route below its mount point. */
function localPath(route: RouteDefinition, prefix: string): string {
  if (!route.path.startsWith(`${prefix}/`)) throw new Error(`${route.operationId}: ${route.path} must start with ${prefix}/`);
  return route.path.slice(prefix.length);
}

/** The first segment of a path below its mount point, as Express (case-insensitive by default) compares it. */
function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return (end === -1 ? path.slice(1) : path.slice(1, end)).toLowerCase();
}

/**
 * One router per first path segment behind a single dispatching layer: Express tries a router's
 * layers one by one, so with every route of a mount point on one router a request paid a path match
 * for each route registered before its own (about a hundred on `/v1`, growing with each area). Now
 * it pays a map lookup and the matches of its own resource's routes, in their list order.
 */
class SegmentRouters {
  private readonly bySegment = new Map<string, Router>();

  for(path: string): Router {
    const segment = firstSegment(path);
    if (segment.startsWith(':') || segment === '' || segment === '*') throw new Error(`${path}: the first segment of a route must be literal`);
    let router = this.bySegment.get(segment);
    if (!router) {
      router = Router();
      this.bySegment.set(segment, router);
    }
    return router;
  }

  mountOn(target: Router): void {
    const dispatch: RequestHandler = (req, res, next) => {
      const router = this.bySegment.get(firstSegment(req.path));
      if (router) router(req, res, next);
      else next();
    };
    // Route tables (the OpenAPI and scope-matrix tests) read the routers behind the lookup from here.
    target.use(Object.assign(dispatch, { segmentRouters: [...this.bySegment.values()] }));
  }
}

/**
 * Registers every route of the list: `public` ones on the app, scoped ones on the `/v1` router
 * behind their scope guard, `admin` ones on the `/admin/v1` router, in list order (within the
 * routes that share a first path segment, which are the only ones that can match the same path).
 */
export function registerRoutes(
  routes: readonly RouteDefinition[],
  target: { app: Express; v1: Router; admin: Router },
  container: Container,
): void {
  const v1 = new SegmentRouters();
  const admin = new SegmentRouters();
  for (const route of routes) {
    const handler = handlerOf(route, container);
    if (route.auth === 'public') {
      target.app[route.method](route.path, handler);
    } else if (route.auth === 'admin') {
      const path = localPath(route, ADMIN);
      admin.for(path)[route.method](path, handler);
    } else {
      const path = localPath(route, V1);
      v1.for(path)[route.method](path, requireScope(route.auth.scope), handler);
    }
  }
  v1.mountOn(target.v1);
  admin.mountOn(target.admin);
}

/** Every request schema of a route with the field path it validates (for the route-wide tests). */
export function requestSchemas(route: RouteDefinition): { where: string; schema: JsonSchema }[] {
  return [
    ...Object.entries(route.params ?? {}).map(([name, spec]) => ({ where: `params.${name}`, schema: spec.schema })),
    ...Object.entries(route.headers ?? {}).map(([name, spec]) => ({ where: `headers.${name}`, schema: spec.schema })),
    ...(route.query ? [{ where: 'query', schema: route.query as JsonSchema }] : []),
    ...(route.body ? [{ where: 'body', schema: route.body.schema as JsonSchema }] : []),
  ];
}
