import type { ErrorCode } from '@carteiro/core';
import type { RouteAccess } from '../http/route.js';
import { s, type JsonSchema } from '../http/schema.js';

export { s, type JsonSchema };

/** Who may call an operation (the route definitions' `RouteAccess`). */
export type OperationAuth = RouteAccess;

/** A path or query parameter of a legacy operation. */
export interface ParameterSpec {
  schema: JsonSchema;
  description?: string;
  required?: boolean;
}

/**
 * The former way of documenting a route, apart from its controller: only the campaigns'
 * `openapi/paths/campaigns.ts` still uses it, until the campaign routes are route definitions
 * (`http/route.ts`). The document builder skips any of these a route definition covers.
 */
export interface ApiOperation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  auth: OperationAuth;
  pathParams?: Record<string, ParameterSpec>;
  query?: { schema?: JsonSchema; extra?: Record<string, ParameterSpec> };
  headers?: Record<string, ParameterSpec>;
  body?: { schema: JsonSchema; required?: boolean; description?: string; example?: unknown };
  success: { status: number; description: string; data: JsonSchema; meta?: JsonSchema; raw?: boolean };
  errors?: ErrorCode[];
}

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

/** A record id in a path. */
export const idParam = (what: string): ParameterSpec => ({ schema: { type: 'string', format: 'uuid' }, description: `Id of the ${what}.` });
