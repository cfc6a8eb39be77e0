import type { Page } from '@carteiro/core';
import { defineRoute, type RouteDefinition, type RouteSpec } from '../http/route.js';
import { s, type JsonSchema, type PageQuery, type TypedSchema } from '../http/schema.js';
import type { Use } from './get-by-id.js';

/**
 * `GET` of one page of the caller's company's records of a kind, as `list` reads them with the
 * query (`page` and `limit`, and the filters the query schema adds), each item answered through `view`.
 */
export function pageOfCompany<Query extends PageQuery, Item>(
  route: Pick<RouteSpec<string, Query, never>, 'path' | 'auth' | 'operationId' | 'summary' | 'description' | 'tag'> & {
    query: TypedSchema<Query>;
    /** The 200 answer: what the page holds and the schema of one item. */
    response: { description: string; item: JsonSchema };
    list(use: Use, companyId: string, query: Query): Promise<Page<Item>>;
    view(item: Item): unknown;
  },
): RouteDefinition {
  const { response, list, view, ...rest } = route;
  return defineRoute<string, Query>({
    method: 'get',
    ...rest,
    response: { status: 200, description: response.description, data: s.page(response.item) },
    async handler({ query, principal, use }) {
      const page = await list(use, principal.company.id, query);
      return { ...page, items: page.items.map(view) };
    },
  });
}
