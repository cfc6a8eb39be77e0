import { GroupedCalls, isUuid } from '@carteiro/core';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from './database.js';

const perDatabase = new WeakMap<object, Map<string, object>>();

/**
 * The grouped statement `name` of a database (its pool): every repository object made on that database, whatever
 * transaction-free caller holds it, shares it. `run` is taken from the first call.
 */
export function groupedOn<Request, Result>(
  db: object,
  name: string,
  run: (requests: readonly Request[]) => Promise<(Result | PromiseLike<Result>)[]>,
): GroupedCalls<Request, Result> {
  let named = perDatabase.get(db);
  if (!named) perDatabase.set(db, (named = new Map()));
  let group = named.get(name) as GroupedCalls<Request, Result> | undefined;
  if (!group) named.set(name, (group = new GroupedCalls(run)));
  return group;
}

/**
 * Rows by id for many callers at once: one `WHERE key = ANY(…)` statement for the ids asked meanwhile, each caller
 * answered its row or null. Ids that are not UUIDs are answered null without being sent (one caller's bad id must
 * not fail the statement of the others).
 */
export function groupedById<Row>(
  db: object,
  name: string,
  select: (ids: string[]) => Promise<Row[]>,
  keyOf: (row: Row) => string,
): (id: string) => Promise<Row | null> {
  const group = groupedOn<string, Row | null>(db, name, async (ids) => {
    const valid = [...new Set(ids.filter(isUuid))];
    const found = new Map((valid.length > 0 ? await select(valid) : []).map((row) => [keyOf(row), row]));
    return ids.map((id) => found.get(id) ?? null);
  });
  return (id) => group.submit(id);
}

/**
 * The row of `table` whose uuid `column` is `key`, or null. Outside a transaction (the dispatch lanes of a worker reading
 * their context, the simulator's looks) the reads made at once share one statement, the group `name` of the database
 * (groupedById over `column = ANY(…)`); inside one, the read is the transaction's own.
 */
export async function rowByKey<T extends keyof Database & string>(
  db: Kysely<Database>,
  name: string,
  table: T,
  column: keyof Database[T] & string,
  key: string,
): Promise<Selectable<Database[T]> | null> {
  // The table and column are names of Database, checked by the signature; the statements are the same as written out.
  const loose = db as unknown as Kysely<Record<string, Record<string, string>>>;
  const ref: string = column;
  const row = (loose.isTransaction
    ? await loose.selectFrom(table).selectAll().where(ref, '=', key).executeTakeFirst()
    : await groupedById(
        db,
        name,
        (ids) => loose.selectFrom(table).selectAll().where(ref, '=', sql<string>`ANY(${ids}::uuid[])`).execute(),
        (r) => r[ref]!,
      )(key)) as Selectable<Database[T]> | undefined | null;
  return row ?? null;
}
