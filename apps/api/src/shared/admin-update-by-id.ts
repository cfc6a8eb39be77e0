import type { ErrorCode } from '@carteiro/core';
import { adminIdParam, defineRoute, type RouteDefinition, type RouteSpec } from '../http/route.js';
import type { JsonSchema } from '../http/schema.js';
import type { Use } from './get-by-id.js';

/** What an operator's read or change of one record by id says of itself. */
type AdminByIdSpec = Pick<RouteSpec<string, never, never>, 'path' | 'operationId' | 'summary' | 'description' | 'validationCode'> & {
  /** The record, as a malformed id's 400 names it. */
  record: string;
  /** The 200 answer: what it holds and its schema. */
  response: { description: string; data: JsonSchema };
  errors?: readonly ErrorCode[];
};

/**
 * `<method> /admin/v1/<records>/:id`: the operator reads or changes one record by its id (a malformed id is a 400, as
 * every `/admin/v1` id), and the 200 answer is what `change` returns. `change` throws NotFoundError for an unknown id:
 * BAD_REQUEST and NOT_FOUND are the errors such a route documents unless `errors` says otherwise.
 */
function adminById<Body>(
  method: 'get' | 'patch' | 'delete',
  route: AdminByIdSpec & { body?: RouteSpec<string, never, Body>['body'] },
  change: (use: Use, id: string, body: Body) => Promise<unknown>,
): RouteDefinition {
  const { record, response, errors = ['BAD_REQUEST', 'NOT_FOUND'], ...rest } = route;
  return defineRoute<string, Record<string, never>, Body>({
    method,
    ...rest,
    auth: 'admin',
    tag: 'Admin',
    params: { id: adminIdParam(record) },
    response: { status: 200, ...response },
    errors,
    async handler({ params, body, use }) {
      return change(use, (params as { id: string }).id, body);
    },
  });
}

/** `PATCH /admin/v1/<records>/:id` (see {@link adminById}): `update` answers with the changed record. */
export function adminUpdateById<Body>(
  route: AdminByIdSpec & { body: NonNullable<RouteSpec<string, never, Body>['body']>; update(use: Use, id: string, body: Body): Promise<unknown> },
): RouteDefinition {
  const { update, ...rest } = route;
  return adminById('patch', rest, update);
}

/** `DELETE /admin/v1/<records>/:id` (see {@link adminById}): `remove` answers with what was removed. */
export function adminDeleteById(route: AdminByIdSpec & { remove(use: Use, id: string): Promise<unknown> }): RouteDefinition {
  const { remove, ...rest } = route;
  return adminById<undefined>('delete', rest, (use, id) => remove(use, id));
}

/** `GET /admin/v1/<records>/:id` (see {@link adminById}): `read` answers with the record. */
export function adminReadById(route: AdminByIdSpec & { read(use: Use, id: string): Promise<unknown> }): RouteDefinition {
  const { read, ...rest } = route;
  return adminById<undefined>('get', rest, (use, id) => read(use, id));
}
