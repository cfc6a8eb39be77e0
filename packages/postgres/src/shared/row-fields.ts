/** `company_id` → `companyId`. */
export type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;
/** `companyId` → `company_id`. */
export type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Uppercase<Head> ? (Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`) : Head}${SnakeCase<Tail>}`
  : S;

/** A name converted once per process: row mappers run per row (an API key on every request), the names are few. */
function memoised(convert: (name: string) => string): (name: string) => string {
  const names = new Map<string, string>();
  return (name) => {
    let converted = names.get(name);
    if (converted === undefined) names.set(name, (converted = convert(name)));
    return converted;
  };
}

const camelCase = memoised((column) => column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()));
const snakeCase = memoised((field) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));

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
