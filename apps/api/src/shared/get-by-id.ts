import type { ErrorCode } from '@carteiro/core';
import { defineRoute, type RouteContext, type RouteDefinition, type RouteSpec } from '../http/route.js';
import type { JsonSchema } from '../http/schema.js';

/** What a route of the caller's company reads with: `use(Token)` resolves a service of the container. */
export type Use = RouteContext<unknown, unknown, unknown>['use'];

/**
 * `GET <…>/:id` of a `/v1` area: one record of the caller's company by its id, as `read` answers it.
 * `read` throws NotFoundError for an id the company does not have (another company's included):
 * 404 NOT_FOUND, the one error such a read documents (`errors`: what the route's document lists,
 * when it says otherwise; an empty list documents none).
 */
export function getById(
  route: Pick<RouteSpec<string, never, never>, 'path' | 'auth' | 'params' | 'operationId' | 'summary' | 'description' | 'tag'> & {
    /** The 200 answer: what it holds and its schema. */
    response: { description: string; data: JsonSchema };
    errors?: readonly ErrorCode[];
    read(use: Use, companyId: string, id: string): Promise<unknown>;
  },
): RouteDefinition {
  const { response, read, errors = ['NOT_FOUND'], ...rest } = route;
  return defineRoute({
    method: 'get',
    ...rest,
    response: { status: 200, ...response },
    ...(errors.length > 0 ? { errors } : {}),
    async handler({ params, principal, use }) {
      return read(use, principal.company.id, (params as { id: string }).id);
    },
  });
}
