import { pageOffset, toPage, type Page, type PageRequest } from '@carteiro/core';
import type { SelectQueryBuilder } from 'kysely';

/**
 * One page of the rows `base` finds, with the count of all of them (both statements at once):
 * `select` chooses and orders the page's columns (LIMIT and OFFSET are added here), the count runs
 * on `base` as it is, and `map` turns the page's rows into items.
 */
export async function readPage<DB, TB extends keyof DB, Row, Item>(
  base: SelectQueryBuilder<DB, TB, object>,
  select: (query: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, Row>,
  page: PageRequest,
  map: (rows: Row[]) => Item[] | Promise<Item[]>,
): Promise<Page<Item>> {
  const [rows, total] = await Promise.all([
    select(base).limit(page.limit).offset(pageOffset(page)).execute(),
    // The selection's type does not resolve over a generic table: it is `{ n: string }`.
    base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow() as Promise<unknown> as Promise<{ n: string | number | bigint }>,
  ]);
  return toPage(await map(rows as Row[]), Number(total.n), page);
}
