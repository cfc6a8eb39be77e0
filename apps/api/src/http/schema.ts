/** A JSON Schema object as ajv and OpenAPI 3.1 both read it. */
export type JsonSchema = Record<string, unknown>;

/**
 * A JSON Schema that also carries, for TypeScript only, the type of the values it accepts: a
 * route's handler gets its validated body and query typed from the schemas of its definition.
 */
export type TypedSchema<T> = JsonSchema & { readonly __accepts?: T };

/** Names the TypeScript type a request schema accepts (the schema itself is unchanged). */
export function typed<T>(schema: JsonSchema): TypedSchema<T> {
  return schema as TypedSchema<T>;
}

const componentNames = new WeakMap<object, string>();

/**
 * Names a response schema: the OpenAPI document lists it once under `components.schemas` and
 * refers to it wherever a route uses it.
 */
export function component<T extends JsonSchema>(name: string, schema: T): T {
  componentNames.set(schema, name);
  return schema;
}

/** The name `component` gave a schema, if any. */
export function componentName(schema: object): string | undefined {
  return componentNames.get(schema);
}

/** Largest value of a PostgreSQL `integer` column: every integer a request may carry is at most this unless said otherwise. */
export const INT4_MAX = 2_147_483_647;
/** Unix seconds of 9999-12-31T23:59:59Z, the last second PostgreSQL and JavaScript dates agree on. */
export const UNIX_SECONDS_MAX = 253_402_300_799;

/**
 * Builders of schemas. Request integers get an explicit `maximum` (a test walks every route and
 * fails on an integer without one); response schemas describe what the views answer.
 */
export const s = {
  string: (extra: JsonSchema = {}): JsonSchema => ({ type: 'string', ...extra }),
  nullableString: (extra: JsonSchema = {}): JsonSchema => ({ type: ['string', 'null'], ...extra }),
  integer: (extra: JsonSchema = {}): JsonSchema => ({ type: 'integer', ...extra }),
  nullableInteger: (extra: JsonSchema = {}): JsonSchema => ({ type: ['integer', 'null'], ...extra }),
  number: (extra: JsonSchema = {}): JsonSchema => ({ type: 'number', ...extra }),
  boolean: (extra: JsonSchema = {}): JsonSchema => ({ type: 'boolean', ...extra }),
  uuid: (extra: JsonSchema = {}): JsonSchema => ({ type: 'string', format: 'uuid', ...extra }),
  nullableUuid: (extra: JsonSchema = {}): JsonSchema => ({ type: ['string', 'null'], format: 'uuid', ...extra }),
  dateTime: (extra: JsonSchema = {}): JsonSchema => ({ type: 'string', format: 'date-time', ...extra }),
  nullableDateTime: (extra: JsonSchema = {}): JsonSchema => ({ type: ['string', 'null'], format: 'date-time', ...extra }),
  enum: (values: readonly string[], extra: JsonSchema = {}): JsonSchema => ({ type: 'string', enum: [...values], ...extra }),
  array: (items: JsonSchema, extra: JsonSchema = {}): JsonSchema => ({ type: 'array', items, ...extra }),
  ref: (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` }),
  /** An object whose listed properties are all present (null where a value is missing), unless named in `optional`. */
  object: (properties: Record<string, JsonSchema>, options: { optional?: string[]; description?: string } = {}): JsonSchema => ({
    type: 'object',
    ...(options.description ? { description: options.description } : {}),
    required: Object.keys(properties).filter((name) => !options.optional?.includes(name)),
    properties,
  }),
  /** The specification's paginated list: `{ items, total, page, limit, totalPages }`. */
  page: (items: JsonSchema): JsonSchema => ({
    type: 'object',
    required: ['items', 'total', 'page', 'limit', 'totalPages'],
    properties: {
      items: { type: 'array', items },
      total: { type: 'integer', minimum: 0 },
      page: { type: 'integer', minimum: 1 },
      limit: { type: 'integer', minimum: 1 },
      totalPages: { type: 'integer', minimum: 0 },
    },
  }),
};

/** `page` and `limit` of a list: `limit` above `maxLimit` is a 400 rather than a silent cap. */
export function pageProperties(maxLimit: number, defaultLimit = Math.min(20, maxLimit)): Record<string, JsonSchema> {
  return {
    page: { type: 'integer', minimum: 1, maximum: INT4_MAX, default: 1, description: 'Page number, from 1.' },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: maxLimit,
      default: defaultLimit,
      description: `Items per page; above ${maxLimit} is a 400 rather than a silent cap.`,
    },
  };
}

/** What `pageProperties` gives a handler after validation (defaults applied). */
export interface PageQuery {
  page: number;
  limit: number;
}

/** The query of a plain paginated list. */
export function pageQuery(maxLimit: number, defaultLimit?: number): TypedSchema<PageQuery> {
  return { type: 'object', properties: pageProperties(maxLimit, defaultLimit) };
}
