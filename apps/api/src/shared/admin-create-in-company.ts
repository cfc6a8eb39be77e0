import type { ErrorCode } from '@carteiro/core';
import { adminIdParam, defineRoute, type RouteDefinition, type RouteSpec } from '../http/route.js';
import type { JsonSchema } from '../http/schema.js';
import type { Use } from './get-by-id.js';

/**
 * `POST /admin/v1/companies/:id/<records>`: the operator creates a record in the company of the path (a malformed
 * company id is a 400, as every `/admin/v1` id), and the 201 answer is what `create` returns. `create` throws
 * NotFoundError for an unknown company: BAD_REQUEST and NOT_FOUND are the errors such a creation documents unless
 * `errors` says otherwise (an empty list documents none); the tag is `Admin` unless `tag` names another.
 */
export function adminCreateInCompany<Body>(
  route: Pick<RouteSpec<string, never, Body>, 'path' | 'operationId' | 'summary' | 'description' | 'validationCode'> & {
    tag?: string;
    body: NonNullable<RouteSpec<string, never, Body>['body']>;
    /** The 201 answer: what it holds and its schema. */
    response: { description: string; data: JsonSchema };
    errors?: readonly ErrorCode[];
    create(use: Use, companyId: string, body: Body): Promise<unknown>;
  },
): RouteDefinition {
  const { response, create, tag = 'Admin', errors = ['BAD_REQUEST', 'NOT_FOUND'], ...rest } = route;
  return defineRoute<string, Record<string, never>, Body>({
    method: 'post',
    ...rest,
    auth: 'admin',
    tag,
    params: { id: adminIdParam('company') },
    response: { status: 201, ...response },
    ...(errors.length > 0 ? { errors } : {}),
    async handler({ params, body, use }) {
      return create(use, (params as { id: string }).id, body);
    },
  });
}
