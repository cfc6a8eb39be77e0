import { Ajv, type ErrorObject, type SchemaObject, type ValidateFunction } from 'ajv';
import * as formats from 'ajv-formats';
import { ValidationError } from '@carteiro/core';

// ajv-formats is CommonJS with a default export; under NodeNext its namespace needs unwrapping.
type FormatsPlugin = (ajv: Ajv) => Ajv;
const addFormats = ((formats as unknown as { default?: FormatsPlugin }).default ?? formats) as FormatsPlugin;

/** One ajv for the whole app: schemas compile once and are cached by identity. */
export const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: true });
addFormats(ajv);

const compiled = new WeakMap<SchemaObject, ValidateFunction>();

function describe(error: ErrorObject): { field: string; message: string } {
  const base = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (error.keyword === 'required') {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    return { field: base ? `${base}.${missing}` : missing, message: 'is required' };
  }
  if (error.keyword === 'additionalProperties') {
    const extra = (error.params as { additionalProperty: string }).additionalProperty;
    return { field: base ? `${base}.${extra}` : extra, message: 'is not allowed' };
  }
  return { field: base || '(body)', message: error.message ?? 'is invalid' };
}

/**
 * Validates `value` against a JSON Schema and returns it typed, or throws a 400 whose details
 * list every problem as `{ field, message }`.
 */
export function validate<T>(schema: SchemaObject, value: unknown, code: 'VALIDATION_ERROR' | 'BAD_REQUEST' = 'VALIDATION_ERROR'): T {
  let check = compiled.get(schema);
  if (!check) {
    check = ajv.compile(schema);
    compiled.set(schema, check);
  }
  if (!check(value)) {
    const errors = (check.errors ?? []).map(describe);
    const first = errors[0];
    throw new ValidationError(first ? `${first.field} ${first.message}` : 'Invalid request', { errors }, code);
  }
  return value as T;
}
