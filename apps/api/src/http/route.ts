import type { Request, Response } from 'express';
import type { ServiceIdentifier } from 'inversify';
import { NotFoundError, ValidationError, type DomainError, type ErrorCode, type Principal, type Scope } from '@carteiro/core';
import type { JsonSchema, TypedSchema } from './schema.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Who may call a route. */
export type RouteAccess =
  /** A company API key (`Authorization: Bearer ak_…`) holding this scope; mounted under `/v1`. */
  | { scope: Scope }
  /** The operator's admin token; mounted under `/admin/v1`. */
  | 'admin'
  /** Anyone; mounted on the app itself (the OpenAPI document). */
  | 'public';

/** A path parameter or a request header. */
export interface ParameterSpec {
  schema: JsonSchema;
  description?: string;
  /** Headers only: whether the header must be sent. Path parameters are always required. */
  required?: boolean;
  /**
   * Path parameters only: the error a value failing `schema` answers. Without it, a 400 naming
   * the parameter with the route's `validationCode`. Ids use `idParam`, which answers 404 as a
   * missing record does.
   */
  malformed?: (value: string) => DomainError;
}

/** The success answer of a route. */
export interface RouteResponse {
  status: number;
  description: string;
  /** What goes inside `{ success: true, data }`, or the whole body when `raw`. */
  data: JsonSchema;
  /** The `meta` beside `data`, when the route may answer one. */
  meta?: JsonSchema;
  /** The body is `data` itself, not the envelope. */
  raw?: boolean;
}

/** `:name` segments of an Express path, as an object type. */
export type PathParams<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string } & PathParams<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? { [K in Name]: string }
    : Record<never, string>;

/** What a handler gets: the validated request, the caller, Express when needed and the container's services. */
export interface RouteContext<Params, Query, Body> {
  /** Path parameters, validated (uuids lower-cased). */
  params: Params;
  /** The query string, validated against the route's schema (numbers converted, defaults applied). */
  query: Query;
  /** The body, validated against the route's schema (`{}` when none was sent). */
  body: Body;
  /** The declared headers that were sent, validated. */
  headers: Record<string, string | undefined>;
  /** The API key and company of a `/v1` call (throws on admin and public routes). */
  readonly principal: Principal;
  req: Request;
  res: Response;
  /** A service of the API container, e.g. `use(CreateWebhook)` (resolved once per route). */
  use<T>(token: ServiceIdentifier<T>): T;
}

/** A handler's answer when it needs more than the data: a `meta` object or another status. */
export class Reply {
  constructor(
    readonly data: unknown,
    readonly options: { meta?: Record<string, unknown>; status?: number } = {},
  ) {}
}

/** Answers `data` with a `meta` object and/or a status other than the route's. */
export function reply(data: unknown, options: { meta?: Record<string, unknown>; status?: number }): Reply {
  return new Reply(data, options);
}

/**
 * One HTTP route, whole: what the OpenAPI document says about it, the schemas its input is
 * validated with, who may call it and what it does. Lists of these (`<area>.routes.ts`) are
 * registered with Express, turned into the OpenAPI document and walked by the route-wide tests.
 */
export interface RouteSpec<Path extends string, Query, Body> {
  method: HttpMethod;
  /** Full Express path, `:param` style, e.g. `/v1/campaigns/:id`. */
  path: Path;
  auth: RouteAccess;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** One entry per `:param` of the path. */
  params?: Record<string, ParameterSpec>;
  /** An object schema of the query string; its properties become the documented query parameters. */
  query?: TypedSchema<Query>;
  /** Request headers the route reads (besides Authorization). */
  headers?: Record<string, ParameterSpec>;
  /** The request body; `required: false` when it may be omitted. */
  body?: { schema: TypedSchema<Body>; required?: boolean; description?: string; example?: unknown };
  /** The code of a 400 for input failing the schemas (the specification keeps BAD_REQUEST on some routes). */
  validationCode?: 'VALIDATION_ERROR' | 'BAD_REQUEST';
  response: RouteResponse;
  /** Error codes this route may answer besides the ones every route of its kind may (see openapi/document.ts). */
  errors?: readonly ErrorCode[];
  /**
   * Answers the request: returns the data of the success envelope (or a `Reply`); a handler that
   * wrote the response itself returns nothing.
   */
  handler(context: RouteContext<PathParams<Path>, Query, Body>): Promise<unknown> | unknown;
}

/** A route of any shape, as the lists hold them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RouteDefinition = RouteSpec<string, any, any>;

/** Declares a route; the handler's params, query and body are typed from the path and the schemas. */
export function defineRoute<const Path extends string, Query = Record<string, never>, Body = undefined>(
  route: RouteSpec<Path, Query, Body>,
): RouteDefinition {
  return route as RouteDefinition;
}

/** A record id in a path: a malformed one answers 404 like a missing one (`what` names the record). */
export function idParam(what: string, entity: string): ParameterSpec {
  return {
    schema: { type: 'string', format: 'uuid' },
    description: `Id of the ${what}.`,
    malformed: () => new NotFoundError(entity),
  };
}

/** A record id in a path of the operator API: a malformed one is a 400 BAD_REQUEST. */
export function adminIdParam(what: string): ParameterSpec {
  return {
    schema: { type: 'string', format: 'uuid' },
    description: `Id of the ${what}; a malformed one is a 400.`,
    malformed: (value) => new ValidationError('id must match format "uuid"', { errors: [{ field: 'id', message: 'must match format "uuid"' }], value }, 'BAD_REQUEST'),
  };
}
