import { ErrorCodes, type ErrorCode } from '@carteiro/core';
import { statusOf } from '../http/error-handler.js';
import type { RouteDefinition } from '../http/route.js';
import { componentName, type JsonSchema } from '../http/schema.js';
import { apiRoutes } from '../routes.js';
import { webhookEvents } from './webhook-events.js';

/** A documented parameter: path, query or header. */
interface DocumentedParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

/** What the document needs of an operation, from a route definition. */
export interface DocumentedOperation {
  method: string;
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  auth: RouteDefinition['auth'];
  parameters: DocumentedParameter[];
  body?: { schema: JsonSchema; required?: boolean; description?: string; example?: unknown };
  response: RouteDefinition['response'];
  errors: readonly ErrorCode[];
}

const pathParamNames = (path: string) => [...path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);

/** The properties of an object schema as query parameters; a property's description moves to its parameter. */
function queryParameters(schema: JsonSchema | undefined): DocumentedParameter[] {
  const object = schema as { properties?: Record<string, JsonSchema>; required?: string[] } | undefined;
  return Object.entries(object?.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property as JsonSchema & { description?: string };
    return { name, in: 'query', required: object?.required?.includes(name) ?? false, ...(description ? { description } : {}), schema: rest };
  });
}

function fromRoute(route: RouteDefinition): DocumentedOperation {
  const params = route.params ?? {};
  for (const name of pathParamNames(route.path)) {
    if (!params[name]) throw new Error(`${route.operationId}: path parameter ${name} is not described`);
  }
  return {
    ...route,
    parameters: [
      ...pathParamNames(route.path).map((name) => ({
        name,
        in: 'path' as const,
        required: true,
        ...(params[name]!.description ? { description: params[name]!.description } : {}),
        schema: params[name]!.schema,
      })),
      ...queryParameters(route.query),
      ...Object.entries(route.headers ?? {}).map(([name, spec]) => ({
        name,
        in: 'header' as const,
        required: spec.required ?? false,
        ...(spec.description ? { description: spec.description } : {}),
        schema: spec.schema,
      })),
    ],
    errors: route.errors ?? [],
  };
}

/**
 * Every operation of the API: the route definitions collected in `routes.ts`. `openapi.int.test.ts`
 * fails while an Express route has no operation or the reverse.
 */
export function documentedOperations(routes: readonly RouteDefinition[]): DocumentedOperation[] {
  return routes.map(fromRoute);
}

export const apiOperations: readonly DocumentedOperation[] = documentedOperations(apiRoutes);

/**
 * Replaces every schema named with `component(name, schema)` by a `$ref` and collects it under
 * `components.schemas` (a name used for two different schemas is an error).
 */
function hoist(node: unknown, schemas: Record<string, JsonSchema>, seen: Map<string, unknown>): unknown {
  if (Array.isArray(node)) return node.map((item) => hoist(item, schemas, seen));
  if (!node || typeof node !== 'object') return node;
  const name = componentName(node);
  const copy = Object.fromEntries(Object.entries(node as JsonSchema).map(([key, value]) => [key, hoist(value, schemas, seen)]));
  if (!name) return copy;
  if (seen.has(name) && seen.get(name) !== node) throw new Error(`two different schemas are named ${name}`);
  seen.set(name, node);
  schemas[name] = copy;
  return { $ref: `#/components/schemas/${name}` };
}

const tags = [
  { name: 'Reference', description: 'This document. The rendered page is at `/docs`.' },
  { name: 'Account', description: 'Limits, balance, boxes (setores) and teams of the calling company.' },
  { name: 'Messages', description: 'Synchronous single messages: text, media, templates, interactive, event cards, polls; edit, delete, react.' },
  { name: 'Campaigns', description: 'Asynchronous bulk campaigns: paced, scheduled, spread over numbers, with per-recipient results.' },
  { name: 'Channel instances', description: 'Connecting numbers by QR code, their status, health and profiles.' },
  { name: 'Webhooks', description: 'Signed event deliveries: registration, test, delivery log and redelivery. The events are under Webhook events.' },
  { name: 'Admin', description: 'The operator API (`/admin/v1`, admin token): companies, API keys, boxes and teams.' },
  { name: 'Simulator', description: 'The channel simulator, for tests and demos (admin token).' },
  { name: 'Webhook events', description: 'What your webhook URL receives: one POST per event with the signed envelope.' },
];

const statusNames: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  402: 'PaymentRequired',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'Conflict',
  412: 'PreconditionFailed',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  422: 'Unprocessable',
  429: 'TooManyRequests',
  500: 'InternalError',
  502: 'ProviderError',
  503: 'ServiceUnavailable',
};

const statusDescriptions: Record<number, string> = {
  400: 'Invalid input. VALIDATION_ERROR lists every problem in `details.errors: [{ field, message }]`.',
  401: 'Missing, invalid, revoked or expired credentials.',
  402: 'Quota or balance exhausted, or the account is read-only (BULK_DISABLED, PLAN_EXPIRED).',
  403: 'Missing scope (`details.required_scope`), limit exceeded or sending not allowed now. SAFE_HOUR_VIOLATION and CONCURRENT_LIMIT_EXCEEDED carry `Retry-After`.',
  404: 'Not found, or another company\'s record (answered exactly like a missing one).',
  405: 'Method not allowed.',
  409: 'Conflict with the current state; INVALID_TRANSITION carries `details { status, allowed }`.',
  412: 'PRECONDITION_FAILED: the `If-Match` version is not the stored one (`details.version` is); nothing was changed.',
  413: 'Body over 5 MB.',
  415: 'The body is not application/json.',
  422: 'Understood but not processable (including IDEMPOTENCY_KEY_MISMATCH and WINDOW_EXPIRED).',
  429: 'Rate limit of the key or of the company exceeded; `retryAfter` in seconds, also in `Retry-After`.',
  500: 'Unexpected error.',
  502: 'The channel provider failed; a single send refunds its credit.',
  503: 'A dependency is unavailable.',
};

/** The error envelope, with the codes one status may carry. */
function errorSchema(codes: readonly ErrorCode[]): JsonSchema {
  return {
    type: 'object',
    required: ['success', 'error'],
    properties: {
      success: { type: 'boolean', const: false },
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: {
          code: { type: 'string', enum: [...codes] },
          message: { type: 'string' },
          details: { type: 'object', description: 'Structured details; their fields depend on the code.' },
          retryAfter: { type: 'integer', description: 'TOO_MANY_REQUESTS only: seconds until the window ends.' },
        },
      },
      retryAfter: { type: 'integer', description: 'TOO_MANY_REQUESTS only, as the specification puts it at the top of the body.' },
    },
  };
}

const codesOfStatus = (status: number) => ErrorCodes.filter((code) => statusOf[code] === status);

const rateLimitHeaders = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/RateLimitLimit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/RateLimitRemaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/RateLimitReset' },
};

function defaultErrors(operation: DocumentedOperation): ErrorCode[] {
  // Every route refuses U+0000 in its query, and malformed input where it has any: a 400 is always possible.
  const codes: ErrorCode[] = ['INTERNAL_ERROR', 'VALIDATION_ERROR'];
  if (operation.body) codes.push('PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE');
  if (operation.auth === 'admin') codes.push('UNAUTHORIZED', 'NOT_FOUND');
  else if (operation.auth !== 'public') codes.push('UNAUTHORIZED', 'FORBIDDEN', 'TOO_MANY_REQUESTS');
  return codes;
}

const pascal = (id: string) => id.charAt(0).toUpperCase() + id.slice(1);

/** `/v1/campaigns/:id` → `/v1/campaigns/{id}`. */
export function openApiPath(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z_]+)/g, '{$1}');
}

/** The parts of the document that tell where it is served. */
export interface OpenApiDocumentOptions {
  /** The `servers` entry; defaults to the origin the document is served from. */
  serverUrl?: string;
}

/**
 * The OpenAPI 3.1 document of the whole API, built from the route definitions (`routes.ts`) and
 * the very JSON Schema objects the controllers validate requests with.
 */
export function buildOpenApiDocument(options: OpenApiDocumentOptions = {}, routes: readonly RouteDefinition[] = apiRoutes): Record<string, unknown> {
  const schemas: Record<string, JsonSchema> = {};
  const usedStatuses = new Set<number>();
  const paths: Record<string, Record<string, unknown>> = {};

  const seen = new Map<string, unknown>();
  for (const operation of documentedOperations(routes)) {
    const path = openApiPath(operation.path);
    const parameters = operation.parameters.map(({ name, in: location, required, description, schema }) => ({
      name,
      in: location,
      required,
      ...(description ? { description } : {}),
      schema: hoist(schema, schemas, seen),
    }));

    let requestBody: unknown;
    if (operation.body) {
      const name = `${pascal(operation.operationId)}Request`;
      schemas[name] = operation.body.schema;
      requestBody = {
        required: operation.body.required ?? true,
        ...(operation.body.description ? { description: operation.body.description } : {}),
        content: {
          'application/json': { schema: { $ref: `#/components/schemas/${name}` }, ...(operation.body.example ? { example: operation.body.example } : {}) },
        },
      };
    }

    const success = operation.response;
    const data = hoist(success.data, schemas, seen);
    const successSchema = success.raw
      ? data
      : {
          type: 'object',
          required: ['success', 'data'],
          properties: { success: { type: 'boolean', const: true }, data, ...(success.meta ? { meta: hoist(success.meta, schemas, seen) } : {}) },
        };
    const responses: Record<string, unknown> = {
      [String(success.status)]: {
        description: success.description,
        ...(typeof operation.auth === 'object' ? { headers: rateLimitHeaders } : {}),
        content: { 'application/json': { schema: successSchema } },
      },
    };
    const statuses = new Set([...defaultErrors(operation), ...operation.errors].map((code) => statusOf[code]));
    for (const status of [...statuses].sort()) {
      usedStatuses.add(status);
      responses[String(status)] = { $ref: `#/components/responses/${statusNames[status]}` };
    }

    let security: unknown[];
    let description = operation.description ?? '';
    const extensions: Record<string, unknown> = {};
    if (operation.auth === 'public') security = [];
    else if (operation.auth === 'admin') security = [{ adminToken: [] }];
    else {
      security = [{ apiKey: [operation.auth.scope] }];
      extensions['x-required-scope'] = operation.auth.scope;
      description = `${description ? `${description}\n\n` : ''}Requires an API key with the scope \`${operation.auth.scope}\`.`;
    }

    paths[path] ??= {};
    paths[path]![operation.method] = {
      operationId: operation.operationId,
      summary: operation.summary,
      ...(description ? { description } : {}),
      tags: [operation.tag],
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses,
      security,
      ...extensions,
    };
  }

  const errorResponses: Record<string, unknown> = {};
  for (const status of [...usedStatuses].sort()) {
    const name = statusNames[status]!;
    schemas[`${name}Error`] = errorSchema(codesOfStatus(status));
    const retryAfter = status === 429 || status === 403;
    errorResponses[name] = {
      description: statusDescriptions[status],
      ...(retryAfter ? { headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } } : {}),
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}Error` } } },
    };
  }

  const events = webhookEvents();
  Object.assign(schemas, events.schemas);

  const document = {
    openapi: '3.1.0',
    info: {
      title: 'Carteiro API',
      version: '1.0.0',
      summary: 'Messaging and campaign API: single sends, paced bulk campaigns, channel instances, limits and signed webhooks.',
      description:
        'Every `/v1` call carries `Authorization: Bearer <API key>` (`ak_live_…` sends for real; `ak_test_…` simulates and charges nothing) ' +
        'and needs the scope named on its operation. Answers are `{ "success": true, "data": … }` or ' +
        '`{ "success": false, "error": { "code", "message", "details" } }`. Lists are `{ items, total, page, limit, totalPages }`. ' +
        'Every `/v1` response carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset`.\n\n' +
        'The operator API under `/admin/v1` uses the admin token instead. Webhook deliveries are signed: see Webhook events.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: options.serverUrl ?? '/', description: 'This server' }],
    tags,
    paths,
    webhooks: events.webhooks,
    components: {
      schemas,
      responses: errorResponses,
      headers: {
        RateLimitLimit: { description: 'Requests allowed in the window: the smaller of the key and company limits.', schema: { type: 'integer' } },
        RateLimitRemaining: { description: 'Requests left in the window (the smaller of the two remainders).', schema: { type: 'integer' } },
        RateLimitReset: { description: 'Unix seconds when the window restarts.', schema: { type: 'integer' } },
        RetryAfter: { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } },
      },
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'ak_live_… or ak_test_… API key',
          description:
            'A company API key. Each operation names the scope it needs (its `x-required-scope`, listed in its security requirement); ' +
            'a key without it gets 403 FORBIDDEN with `details.required_scope`. The scope `*` grants every scope.',
        },
        adminToken: { type: 'http', scheme: 'bearer', description: 'The operator admin token (`ADMIN_TOKEN`) of `/admin/v1`.' },
      },
    },
  };
  // A deep copy: whoever reads the document can never alter the schemas the controllers validate with.
  return JSON.parse(JSON.stringify(document)) as Record<string, unknown>;
}
