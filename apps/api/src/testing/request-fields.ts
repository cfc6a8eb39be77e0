import type { JsonSchema } from '../http/schema.js';

/** A leaf of a request schema: where it sits (`message.text`, `recipients.0.name`) and its schema. */
export interface SchemaField {
  /** Property names and `0` for array items, from the schema's root. */
  path: string[];
  schema: JsonSchema;
}

const typesOf = (schema: JsonSchema): string[] =>
  Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : [];

/**
 * Every field a request schema describes, found through `properties`, `items`,
 * `additionalProperties` (as the key `key`) and the branches of `oneOf`/`anyOf`/`allOf`.
 */
export function schemaFields(schema: JsonSchema, path: string[] = []): SchemaField[] {
  const out: SchemaField[] = [];
  if (path.length > 0) out.push({ path, schema });
  for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) out.push(...schemaFields(property, [...path, name]));
  if (schema.items && typeof schema.items === 'object' && !Array.isArray(schema.items)) out.push(...schemaFields(schema.items as JsonSchema, [...path, '0']));
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
    out.push(...schemaFields(schema.additionalProperties as JsonSchema, [...path, 'key']));
  }
  for (const keyword of ['oneOf', 'anyOf', 'allOf']) {
    for (const branch of (schema[keyword] ?? []) as JsonSchema[]) out.push(...schemaFields(branch, path).filter((f) => f.path.length > path.length));
  }
  return out;
}

export const isInteger = (schema: JsonSchema) => typesOf(schema).includes('integer') || typesOf(schema).includes('number');
export const isString = (schema: JsonSchema) => typesOf(schema).includes('string') || (typesOf(schema).length === 0 && Array.isArray(schema.enum));

/** An object holding `value` at `path` (arrays where the path says `0`). */
export function valueAt(path: string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  return head === '0' ? [valueAt(rest, value)] : { [head!]: valueAt(rest, value) };
}
