import type { ErrorCode } from '@carteiro/core';
import { adminIdParam, defineRoute, type RouteDefinition, type RouteSpec } from '../http/route.js';
import type { JsonSchema } from '../http/schema.js';
import type { Use } from './get-by-id.js';

/**
 * `PATCH /admin/v1/<records>/:id`: the operator changes one record by its id (a malformed id is a 400, as every
 * `/admin/v1` id; `record` names it), and the 200 answer is what `update` returns. `update` throws NotFoundError for an
 * unknown id: BAD_REQUEST and NOT_FOUND are the errors such a change documents unless `errors` says otherwise.
 */
export function adminUpdateById<Body>(
  route: Pick<RouteSpec<string, never, Body>, 'path' | 'operationId' | 'summary' | 'description' | 'validationCode'> & {
    record: string;
    body: NonNullable<RouteSpec<string, never, Body>['body']>;
    /** The 200 answer: what it holds and its schema. */
    response: { description: string; data: JsonSchema };
    errors?: readonly ErrorCode[];
    update(use: Use, id: string, body: Body): Promise<unknown>;
  },
): RouteDefinition {
  const { record, response, update, errors = ['BAD_REQUEST', 'NOT_FOUND'], ...rest } = route;
  return defineRoute<string, Record<string, never>, Body>({
    method: 'patch',
    ...rest,
    auth: 'admin',
    tag: 'Admin',
    params: { id: adminIdParam(record) },
    response: { status: 200, ...response },
    errors,
    async handler({ params, body, use }) {
      return update(use, (params as { id: string }).id, body);
    },
  });
}
