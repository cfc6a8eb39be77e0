import { Ajv, type ErrorObject, type SchemaObject, type ValidateFunction } from 'ajv';
import * as formats from 'ajv-formats';
import { isUuid, ValidationError } from '@carteiro/core';

// ajv-formats is CommonJS with a default export; under NodeNext its namespace needs unwrapping.
type FormatsPlugin = (ajv: Ajv) => Ajv;
const addFormats = ((formats as unknown as { default?: FormatsPlugin }).default ?? formats) as FormatsPlugin;

/** One ajv for the whole app: schemas compile once and are cached by identity. */
export const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: true, verbose: true });
addFormats(ajv);
// ajv-formats' uuid also takes `urn:uuid:…`, which PostgreSQL refuses: the core's definition instead.
ajv.addFormat('uuid', (value: string) => isUuid(value));
// RFC 3339 allows a leap second (`23:59:60`), which JavaScript's Date cannot hold (NaN, then a 500 where the
// instant is used): a date-time must also be one Date reads.
const rfc3339 = ajv.formats['date-time'] as { validate: (value: string) => boolean; compare: (a: string, b: string) => number | undefined };
ajv.addFormat('date-time', { type: 'string', validate: (value: string) => rfc3339.validate(value) && !Number.isNaN(Date.parse(value)), compare: rfc3339.compare });

const compiled = new WeakMap<SchemaObject, ValidateFunction>();

/** One problem of a request, as `details.errors` lists them. */
export interface FieldError {
  field: string;
  message: string;
  /** For a value outside a fixed list: the accepted values. */
  allowed?: unknown[];
}

// A path param's or header's own value has no instance path: its field is the name alone (not `X-Actor-User-Id.`).
const join = (base: string, name: string) => (base && name ? `${base}.${name}` : base || name);

function describe(error: ErrorObject, root: string): FieldError {
  const base = join(root, error.instancePath.replace(/^\//, '').replace(/\//g, '.'));
  if (error.keyword === 'required') {
    return { field: join(base, (error.params as { missingProperty: string }).missingProperty), message: 'is required' };
  }
  if (error.keyword === 'additionalProperties') {
    return { field: join(base, (error.params as { additionalProperty: string }).additionalProperty), message: 'is not allowed' };
  }
  if (error.keyword === 'enum') {
    // "must be one of: *, messages:write, …" tells the caller what to send; ajv's text only says there is a list.
    const allowed = (error.params as { allowedValues: unknown[] }).allowedValues;
    return { field: base || '(body)', message: `must be one of: ${allowed.map(String).join(', ')}`, allowed };
  }
  return { field: base || '(body)', message: error.message ?? 'is invalid' };
}

/** The `x-error-reason` a failing subschema names (e.g. `invalid_url`), echoed as `details.reason`. */
function reasonOf(errors: ErrorObject[]): string | undefined {
  for (const error of errors) {
    const reason = (error.parentSchema as { 'x-error-reason'?: unknown } | undefined)?.['x-error-reason'];
    if (typeof reason === 'string') return reason;
  }
  return undefined;
}

/**
 * The answer a schema declares for one of its checks, when the specification fixes it (e.g. a
 * missing campaign `name` is 400 BAD_REQUEST "name is required"): `'x-errors': { required: { name:
 * {…} }, maxItems: {…} }` on the subschema holding the check. The check stays in the schema (and so
 * in the OpenAPI document); only its answer is the specification's.
 */
export interface DeclaredError {
  code: 'VALIDATION_ERROR' | 'BAD_REQUEST';
  message: string;
  details?: Record<string, unknown>;
}

function declaredAnswer(error: ErrorObject): ValidationError | undefined {
  const declared = (error.parentSchema as { 'x-errors'?: Record<string, unknown> } | undefined)?.['x-errors'];
  if (!declared) return undefined;
  let answer = declared[error.keyword] as DeclaredError | Record<string, DeclaredError> | undefined;
  if (answer && error.keyword === 'required') answer = (answer as Record<string, DeclaredError>)[(error.params as { missingProperty: string }).missingProperty];
  if (!answer || typeof (answer as DeclaredError).message !== 'string') return undefined;
  const { code, message, details } = answer as DeclaredError;
  const count = Array.isArray(error.data) ? { count: error.data.length } : {};
  return new ValidationError(message, { ...details, ...(error.keyword === 'maxItems' || error.keyword === 'minItems' ? count : {}) }, code);
}

/** Problems of `value` against `schema` (none when it conforms); defaults are filled in place. */
export function problemsOf(schema: SchemaObject, value: unknown, root = ''): { errors: FieldError[]; reason?: string; declared?: ValidationError } {
  let check = compiled.get(schema);
  if (!check) {
    check = ajv.compile(schema);
    compiled.set(schema, check);
  }
  if (check(value)) return { errors: [] };
  const raw = check.errors ?? [];
  const declared = raw.map(declaredAnswer).find((answer) => answer !== undefined);
  return { errors: raw.map((e) => describe(e, root)), reason: reasonOf(raw), ...(declared ? { declared } : {}) };
}

/** The 400 of a list of problems: the message names the first, `details.errors` lists them all. */
export function validationFailure(
  problems: { errors: FieldError[]; reason?: string; declared?: ValidationError },
  code: 'VALIDATION_ERROR' | 'BAD_REQUEST' = 'VALIDATION_ERROR',
): ValidationError {
  if (problems.declared) return problems.declared;
  const first = problems.errors[0];
  return new ValidationError(
    first ? `${first.field} ${first.message}` : 'Invalid request',
    { errors: problems.errors, ...(first ? { field: first.field } : {}), ...(problems.reason ? { reason: problems.reason } : {}) },
    code,
  );
}

/**
 * The first string (value or key) holding U+0000 in `value`, as a field path (`message.text`,
 * `recipients.3.name`), or null. PostgreSQL refuses NUL in text and JSON, so no input may carry
 * one. Iterative: a deeply nested body must not overflow the stack.
 */
export function fieldWithNul(value: unknown, root = ''): string | null {
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (typeof node === 'string') {
      if (node.includes('\u0000')) return path || '(body)';
    } else if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i -= 1) stack.push([node[i], join(path, String(i))]);
    } else if (node && typeof node === 'object') {
      const entries = Object.entries(node as Record<string, unknown>);
      for (const [key] of entries) if (key.includes('\u0000')) return join(path, key.replace(/\u0000/g, '\\u0000'));
      for (let i = entries.length - 1; i >= 0; i -= 1) stack.push([entries[i]![1], join(path, entries[i]![0])]);
    }
  }
  return null;
}

/** Refuses U+0000 anywhere in `value` with a 400 VALIDATION_ERROR naming the field. */
export function refuseNul(value: unknown, root = ''): void {
  const field = fieldWithNul(value, root);
  if (field !== null) {
    const message = 'must not contain the NUL character (U+0000)';
    throw new ValidationError(`${field} ${message}`, { errors: [{ field, message }], field });
  }
}
