import { sql, type Insertable, type Kysely, type Selectable, type SelectQueryBuilder } from 'kysely';
import type { Database } from './database.js';

/** The tables whose rows each belong to one company (`company_id`) and are named by `id`. */
export type CompanyTable = { [T in keyof Database & string]: 'id' | 'company_id' extends keyof Database[T] ? T : never }[keyof Database & string];

/** The tables whose rows are named by `id`. */
export type RecordTable = { [T in keyof Database & string]: 'id' extends keyof Database[T] ? T : never }[keyof Database & string];

/**
 * The view of the database the statements below need: one table of rows with an `id` (and a `company_id` for the
 * company statements). Kysely resolves no column over a table name that is a type parameter, so the statements see
 * the table as any such table; their callers name a real table and get its rows' types.
 */
type AnyTable = Kysely<Record<string, AnyRow>>;
type AnyRow = Record<string, unknown> & { id: string; company_id: string };

/** A row lock taken by a read, held until the transaction ends. */
export type RowLock = 'forUpdate' | 'forShare';

/** A record by its id, from its row in `table` through `toRecord`, or null; `lock` takes the row's lock. */
export async function findRecord<T extends RecordTable, Item>(
  db: Kysely<Database>,
  table: T,
  id: string,
  toRecord: (row: Selectable<Database[T]>) => Item,
  lock?: RowLock,
): Promise<Item | null> {
  return firstRecord((db as unknown as AnyTable).selectFrom(table as string).selectAll().where('id', '=', id), toRecord, lock);
}

/**
 * A company's record by its id, from its row in `table` through `toRecord`: null when there is none
 * or it is another company's (a lookup by id is always narrowed to the asking company). `lock`
 * takes the row's lock until the transaction ends.
 */
export async function findCompanyRecord<T extends CompanyTable, Item>(
  db: Kysely<Database>,
  table: T,
  companyId: string,
  id: string,
  toRecord: (row: Selectable<Database[T]>) => Item,
  lock?: RowLock,
): Promise<Item | null> {
  const query = (db as unknown as AnyTable).selectFrom(table as string).selectAll().where('company_id', '=', companyId).where('id', '=', id);
  return firstRecord(query, toRecord, lock);
}

/** The row `query` finds (locked as asked) through `toRecord`, or null. */
async function firstRecord<Row, Item>(query: SelectQueryBuilder<Record<string, AnyRow>, string, Record<string, unknown>>, toRecord: (row: Row) => Item, lock: RowLock | undefined): Promise<Item | null> {
  const row = await (lock === 'forUpdate' ? query.forUpdate() : lock === 'forShare' ? query.forShare() : query).executeTakeFirst();
  return row ? toRecord(row as unknown as Row) : null;
}

/**
 * A company's records of those ids (any order; ids of no record, or of another company's, are left
 * out), from their rows in `table` through `toRecord`; no statement at all for no ids.
 */
export async function findCompanyRecords<T extends CompanyTable, Item>(
  db: Kysely<Database>,
  table: T,
  companyId: string,
  ids: readonly string[],
  toRecord: (row: Selectable<Database[T]>) => Item,
): Promise<Item[]> {
  if (ids.length === 0) return [];
  const rows = await (db as unknown as AnyTable)
    .selectFrom(table as string)
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', sql<string>`any(${[...ids]}::uuid[])`)
    .execute();
  return (rows as unknown as Selectable<Database[T]>[]).map(toRecord);
}

/** How many rows of `table` the company has. */
export async function countCompanyRows(db: Kysely<Database>, table: CompanyTable, companyId: string): Promise<number> {
  const row = await (db as unknown as AnyTable)
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('company_id', '=', companyId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Saves a company's record kept whole in one row (`row`, from the record's row mapper): every column
 * but the row's identity (`id`, `company_id`) and its creation time, which never change.
 */
export async function updateCompanyRow<T extends CompanyTable>(db: Kysely<Database>, table: T, row: Insertable<Database[T]> & CompanyRow): Promise<void> {
  const { id, company_id: companyId, created_at: _createdAt, ...changes } = row;
  await (db as unknown as AnyTable).updateTable(table as string).set(changes).where('company_id', '=', companyId).where('id', '=', id).execute();
}

/** What {@link updateCompanyRow} needs of a row mapper's output. */
type CompanyRow = { id: string; company_id: string; created_at: unknown } & Record<string, unknown>;
