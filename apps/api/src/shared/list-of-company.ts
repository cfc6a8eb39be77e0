import { defineRoute, type RouteDefinition, type RouteSpec } from '../http/route.js';
import { s, type JsonSchema } from '../http/schema.js';
import type { Use } from './get-by-id.js';

/**
 * `GET` of every record of one kind the caller's company has (a short list: no pages, no filters),
 * as `list` reads them, each answered through `view`.
 */
export function listOfCompany<Item>(
  route: Pick<RouteSpec<string, never, never>, 'path' | 'auth' | 'operationId' | 'summary' | 'description' | 'tag'> & {
    /** The 200 answer: what the list holds and the schema of one item. */
    response: { description: string; item: JsonSchema };
    list(use: Use, companyId: string): Promise<Item[]>;
    view(item: Item): unknown;
  },
): RouteDefinition {
  const { response, list, view, ...rest } = route;
  return defineRoute({
    method: 'get',
    ...rest,
    response: { status: 200, description: response.description, data: s.array(response.item) },
    async handler({ principal, use }) {
      return (await list(use, principal.company.id)).map(view);
    },
  });
}
