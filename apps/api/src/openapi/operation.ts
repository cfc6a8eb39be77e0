import type { ErrorCode, Scope } from '@carteiro/core';

/** A JSON Schema object as ajv and OpenAPI 3.1 both read it. */
export type JsonSchema = Record<string, unknown>;

/** Who may call an operation. */
export type OperationAuth =
  /** A company API key (`Authorization: Bearer ak_…`) holding this scope. */
  | { scope: Scope }
  /** The operator's admin token (`/admin/v1`). */
  | 'admin'
  /** Anyone (the OpenAPI document itself). */
  | 'public';

/** A path or query parameter. */
export interface ParameterSpec {
  schema: JsonSchema;
  description?: string;
  required?: boolean;
}

/**
 * One HTTP operation of the API, declared next to its feature in `openapi/paths/<feature>.ts`.
 * `buildOpenApiDocument()` turns these into OpenAPI operations; the route-coverage test checks
 * that every Express route has one and that every one has an Express route.
 */
export interface ApiOperation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Full Express path, `:param` style, e.g. `/v1/campaigns/:id`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  auth: OperationAuth;
  /** Schemas of the `:params` in the path (each param must be listed). */
  pathParams?: Record<string, ParameterSpec>;
  /**
   * Query parameters: an object JSON Schema the controller validates `req.query` with (its
   * properties become parameters), and/or extra parameters checked in code (page, limit).
   */
  query?: { schema?: JsonSchema; extra?: Record<string, ParameterSpec> };
  /** Request headers the operation reads (besides Authorization). */
  headers?: Record<string, ParameterSpec>;
  /** The request body schema the controller validates with; `required: false` when it may be omitted. */
  body?: { schema: JsonSchema; required?: boolean; description?: string; example?: unknown };
  /** The success answer: `data` goes inside `{ success: true, data }` unless `raw` (then it is the whole body). */
  success: { status: number; description: string; data: JsonSchema; meta?: JsonSchema; raw?: boolean };
  /** Error codes this operation may answer besides the ones every operation of its kind may (see document.ts). */
  errors?: ErrorCode[];
}

/** Builders for the response schemas written in this area (request schemas come from the controllers). */
export const s = {
  string: (extra: JsonSchema = {}): JsonSchema => ({ type: 'string', ...extra }),
  nullableString: (extra: JsonSchema = {}): JsonSchema => ({ type: ['string', 'null'], ...extra }),
  integer: (extra: JsonSchema = {}): JsonSchema => ({ type: 'integer', ...extra }),
  nullableInteger: (extra: JsonSchema = {}): JsonSchema => ({ type: ['integer', 'null'], ...extra }),
  number: (extra: JsonSchema = {}): JsonSchema => ({ type: 'number', ...extra }),
  boolean: (extra: JsonSchema = {}): JsonSchema => ({ type: 'boolean', ...extra }),
  uuid: (extra: JsonSchema = {}): JsonSchema => ({ type: 'string', format: 'uuid', ...extra }),
  nullableUuid: (extra: JsonSchema = {}): JsonSchema => ({ type: ['string', 'null'], format: 'uuid', ...extra }),
  dateTime: (extra: JsonSchema = {}): JsonSchema => ({ type: 'string', format: 'date-time', ...extra }),
  nullableDateTime: (extra: JsonSchema = {}): JsonSchema => ({ type: ['string', 'null'], format: 'date-time', ...extra }),
  enum: (values: readonly string[], extra: JsonSchema = {}): JsonSchema => ({ type: 'string', enum: [...values], ...extra }),
  array: (items: JsonSchema, extra: JsonSchema = {}): JsonSchema => ({ type: 'array', items, ...extra }),
  ref: (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` }),
  /** An object whose listed properties are all present (null where a value is missing), unless named in `optional`. */
  object: (properties: Record<string, JsonSchema>, options: { optional?: string[]; description?: string } = {}): JsonSchema => ({
    type: 'object',
    ...(options.description ? { description: options.description } : {}),
    required: Object.keys(properties).filter((name) => !options.optional?.includes(name)),
    properties,
  }),
  /** The specification's paginated list: `{ items, total, page, limit, totalPages }`. */
  page: (items: JsonSchema): JsonSchema => ({
    type: 'object',
    required: ['items', 'total', 'page', 'limit', 'totalPages'],
    properties: {
      items: { type: 'array', items },
      total: { type: 'integer', minimum: 0 },
      page: { type: 'integer', minimum: 1 },
      limit: { type: 'integer', minimum: 1 },
      totalPages: { type: 'integer', minimum: 0 },
    },
  }),
};

/** `page` and `limit` as `paged(req.query, max)` reads them. */
export function pageParams(maxLimit: number, defaultLimit = Math.min(20, maxLimit)): Record<string, ParameterSpec> {
  return {
    page: { schema: { type: 'integer', minimum: 1, default: 1 }, description: 'Page number, from 1.' },
    limit: {
      schema: { type: 'integer', minimum: 1, maximum: maxLimit, default: defaultLimit },
      description: `Items per page; above ${maxLimit} is a 400 rather than a silent cap.`,
    },
  };
}

/** A record id in a path. Malformed ids answer like missing ones (404) unless the operation says otherwise. */
export const idParam = (what: string): ParameterSpec => ({ schema: { type: 'string', format: 'uuid' }, description: `Id of the ${what}.` });
