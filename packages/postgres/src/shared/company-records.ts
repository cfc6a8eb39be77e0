import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { Database } from './database.js';

/** The tables whose rows each belong to one company (`company_id`) and are named by `id`. */
export type CompanyTable = { [T in keyof Database & string]: 'id' | 'company_id' extends keyof Database[T] ? T : never }[keyof Database & string];

/** The view of the database the statements below need: one table of rows with an `id` and a `company_id`. */
type AnyCompanyTable = Kysely<Record<string, Record<string, unknown> & { id: string; company_id: string }>>;

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
  lock?: 'forUpdate' | 'forShare',
): Promise<Item | null> {
  // Kysely resolves no column over a table name that is a type parameter: the statement sees the table as any company table.
  const query = (db as unknown as AnyCompanyTable).selectFrom(table as string).selectAll().where('company_id', '=', companyId).where('id', '=', id);
  const row = await (lock === 'forUpdate' ? query.forUpdate() : lock === 'forShare' ? query.forShare() : query).executeTakeFirst();
  return row ? toRecord(row as unknown as Selectable<Database[T]>) : null;
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
  const rows = await (db as unknown as AnyCompanyTable)
    .selectFrom(table as string)
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', sql<string>`any(${[...ids]}::uuid[])`)
    .execute();
  return (rows as unknown as Selectable<Database[T]>[]).map(toRecord);
}

/**
 * Saves a company's record kept whole in one row (`row`, from the record's row mapper): every column
 * but the row's identity (`id`, `company_id`) and its creation time, which never change.
 */
export async function updateCompanyRow<T extends CompanyTable>(db: Kysely<Database>, table: T, row: Insertable<Database[T]> & CompanyRow): Promise<void> {
  const { id, company_id: companyId, created_at: _createdAt, ...changes } = row;
  await (db as unknown as AnyCompanyTable).updateTable(table as string).set(changes).where('company_id', '=', companyId).where('id', '=', id).execute();
}

/** What {@link updateCompanyRow} needs of a row mapper's output. */
type CompanyRow = { id: string; company_id: string; created_at: unknown } & Record<string, unknown>;
