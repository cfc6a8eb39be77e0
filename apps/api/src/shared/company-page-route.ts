import type { Page } from '@carteiro/core';
import { adminIdParam, defineRoute, type RouteContext, type RouteDefinition } from '../http/route.js';
import { pageQuery, s, type JsonSchema, type PageQuery } from '../http/schema.js';

/**
 * `GET /admin/v1/companies/:id/<records>`: one page (up to 100 a page) of a company's records, each
 * item through `view`; a malformed company id answers 400, an unknown company 404.
 */
export function companyPageRoute<Item>(route: {
  path: string;
  operationId: string;
  summary: string;
  /** What the page holds (the 200 response's description). */
  description: string;
  item: JsonSchema;
  list(use: RouteContext<unknown, unknown, unknown>['use'], companyId: string, query: PageQuery): Promise<Page<Item>>;
  view(item: Item): unknown;
}): RouteDefinition {
  return defineRoute({
    method: 'get',
    path: route.path,
    auth: 'admin',
    operationId: route.operationId,
    summary: route.summary,
    tag: 'Admin',
    params: { id: adminIdParam('company') },
    query: pageQuery(100),
    response: { status: 200, description: route.description, data: s.page(route.item) },
    errors: ['BAD_REQUEST', 'NOT_FOUND'],
    async handler({ params, query, use }) {
      const page = await route.list(use, (params as { id: string }).id, query);
      return { ...page, items: page.items.map(route.view) };
    },
  });
}
