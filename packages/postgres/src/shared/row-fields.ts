/** `company_id` → `companyId`. */
export type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;
/** `companyId` → `company_id`. */
export type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Uppercase<Head> ? (Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`) : Head}${SnakeCase<Tail>}`
  : S;

const camelCase = (column: string) => column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const snakeCase = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * The named columns of a row, as they are, under their camelCase names: the part of a row mapper
 * that only renames (`company_id: …` → `companyId: …`); the columns that need a conversion are
 * written beside it.
 */
export function fieldsOf<Row, Column extends keyof Row & string>(row: Row, columns: readonly Column[]): { [C in Column as CamelCase<C>]: Row[C] } {
  const out: Record<string, unknown> = {};
  for (const column of columns) out[camelCase(column)] = row[column];
  return out as { [C in Column as CamelCase<C>]: Row[C] };
}

/** The named fields of a record, as they are, under their snake_case column names (the reverse of {@link fieldsOf}). */
export function columnsOf<Entity, Field extends keyof Entity & string>(entity: Entity, fields: readonly Field[]): { [F in Field as SnakeCase<F>]: Entity[F] } {
  const out: Record<string, unknown> = {};
  for (const field of fields) out[snakeCase(field)] = entity[field];
  return out as { [F in Field as SnakeCase<F>]: Entity[F] };
}
