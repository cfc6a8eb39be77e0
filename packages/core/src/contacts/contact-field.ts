import { ValidationError } from '../shared/errors.js';

/** The types a custom field may have (conversations.md §4). */
export const ContactFieldTypes = ['text', 'number', 'boolean', 'date', 'select', 'multi_select', 'email', 'url', 'cpf', 'cnpj'] as const;
export type ContactFieldType = (typeof ContactFieldTypes)[number];

/** A custom field of the company's contacts: its key, label, type and, for selects, its options. */
export interface ContactFieldDefinition {
  id: string;
  companyId: string;
  /** `^[a-z][a-z0-9_]{0,39}$`, unique in the company. */
  key: string;
  label: string;
  /** Never changes once created. */
  type: ContactFieldType;
  /** Allowed values of `select` and `multi_select` (strings); options are only ever added. */
  options: string[];
  createdAt: Date;
  updatedAt: Date;
}

export const CONTACT_FIELD_KEY = /^[a-z][a-z0-9_]{0,39}$/;
/** Most custom fields a company may define (conversations.md §11). */
export const MAX_CONTACT_FIELDS = 100;
export const MAX_TEXT_FIELD_LENGTH = 1000;
export const MAX_MULTI_SELECT_VALUES = 20;
export const MAX_FIELD_OPTIONS = 200;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `value` is a CPF (11 digits, punctuation allowed) with valid check digits. */
export function isValidCpf(value: string): boolean {
  if (!/^\d{3}\.?\d{3}\.?\d{3}-?\d{2}$/.test(value)) return false;
  const d = value.replace(/\D/g, '').split('').map(Number);
  if (d.every((x) => x === d[0])) return false;
  const check = (length: number) => {
    let sum = 0;
    for (let i = 0; i < length; i += 1) sum += d[i]! * (length + 1 - i);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  return check(9) === d[9] && check(10) === d[10];
}

/** Whether `value` is a CNPJ (14 digits, punctuation allowed) with valid check digits. */
export function isValidCnpj(value: string): boolean {
  if (!/^\d{2}\.?\d{3}\.?\d{3}\/?\d{4}-?\d{2}$/.test(value)) return false;
  const d = value.replace(/\D/g, '').split('').map(Number);
  if (d.every((x) => x === d[0])) return false;
  const check = (length: number) => {
    const weights = length === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
    const sum = weights.reduce((acc, w, i) => acc + w * d[i]!, 0);
    const rest = sum % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  return check(12) === d[12] && check(13) === d[13];
}

function isValidDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const [y, mo, da] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, da));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === da;
}

function isValidUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value) || value.length > 2048) return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

/** One problem of a custom-field value: `field` is `custom_fields.<key>`. */
export interface FieldProblem {
  field: string;
  code: string;
  message: string;
}

/**
 * The stored form of one value of a field, or a problem. Digits of CPF and CNPJ are kept as
 * written; multi-select values are deduplicated.
 */
export function checkFieldValue(definition: ContactFieldDefinition, value: unknown): { value: unknown } | { problem: FieldProblem } {
  const field = `custom_fields.${definition.key}`;
  const bad = (message: string) => ({ problem: { field, code: 'INVALID_VALUE', message } });
  switch (definition.type) {
    case 'text':
      if (typeof value !== 'string') return bad('must be a string');
      if (value.length > MAX_TEXT_FIELD_LENGTH) return bad(`must be at most ${MAX_TEXT_FIELD_LENGTH} characters`);
      return { value };
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return bad('must be a number');
      return { value };
    case 'boolean':
      if (typeof value !== 'boolean') return bad('must be a boolean');
      return { value };
    case 'date':
      if (typeof value !== 'string' || !isValidDate(value)) return bad('must be a date (YYYY-MM-DD)');
      return { value };
    case 'select':
      if (typeof value !== 'string' || !definition.options.includes(value)) return bad(`must be one of ${definition.options.join(', ')}`);
      return { value };
    case 'multi_select': {
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) return bad('must be an array of strings');
      const unique = [...new Set(value as string[])];
      if (unique.length > MAX_MULTI_SELECT_VALUES) return bad(`must have at most ${MAX_MULTI_SELECT_VALUES} values`);
      const outside = unique.filter((v) => !definition.options.includes(v));
      if (outside.length > 0) return bad(`values must be among ${definition.options.join(', ')}`);
      return { value: unique };
    }
    case 'email':
      if (typeof value !== 'string' || value.length > 254 || !EMAIL.test(value)) return bad('must be an email address');
      return { value };
    case 'url':
      if (typeof value !== 'string' || !isValidUrl(value)) return bad('must be an http(s) URL');
      return { value };
    case 'cpf':
      if (typeof value !== 'string' || !isValidCpf(value)) return bad('must be a CPF with valid check digits');
      return { value };
    case 'cnpj':
      if (typeof value !== 'string' || !isValidCnpj(value)) return bad('must be a CNPJ with valid check digits');
      return { value };
  }
}

/**
 * Checks custom-field values against the company's definitions: unknown keys and bad values are
 * problems; `null` means "remove" (kept as null in the answer for the caller to apply).
 */
export function checkCustomFields(
  definitions: readonly ContactFieldDefinition[],
  values: Record<string, unknown>,
): { values: Record<string, unknown>; problems: FieldProblem[] } {
  const byKey = new Map(definitions.map((d) => [d.key, d]));
  const out: Record<string, unknown> = {};
  const problems: FieldProblem[] = [];
  for (const [key, value] of Object.entries(values)) {
    const definition = byKey.get(key);
    if (!definition) {
      problems.push({ field: `custom_fields.${key}`, code: 'UNKNOWN_FIELD', message: 'is not a defined contact field' });
      continue;
    }
    if (value === null) {
      out[key] = null;
      continue;
    }
    const checked = checkFieldValue(definition, value);
    if ('problem' in checked) problems.push(checked.problem);
    else out[key] = checked.value;
  }
  return { values: out, problems };
}

/** Like {@link checkCustomFields} but throws one 400 VALIDATION_ERROR listing every problem. */
export function validateCustomFields(definitions: readonly ContactFieldDefinition[], values: Record<string, unknown>): Record<string, unknown> {
  const { values: out, problems } = checkCustomFields(definitions, values);
  if (problems.length > 0) {
    throw new ValidationError(`${problems[0]!.field} ${problems[0]!.message}`, { errors: problems.map((p) => ({ field: p.field, code: p.code, message: p.message })) });
  }
  return out;
}

/** The rules of a definition's own fields (creation and edits). */
export function checkDefinitionInput(input: { key?: string; label?: string; type?: string; options?: unknown }): void {
  if (input.key !== undefined && !CONTACT_FIELD_KEY.test(input.key)) {
    throw new ValidationError('key must match ^[a-z][a-z0-9_]{0,39}$', { field: 'key' });
  }
  if (input.label !== undefined && (input.label.trim() === '' || input.label.length > 100)) {
    throw new ValidationError('label must have 1-100 characters', { field: 'label' });
  }
  if (input.options !== undefined) {
    const options = input.options;
    if (!Array.isArray(options) || options.some((o) => typeof o !== 'string' || o === '' || o.length > 100) || options.length > MAX_FIELD_OPTIONS) {
      throw new ValidationError(`options must be up to ${MAX_FIELD_OPTIONS} non-empty strings`, { field: 'options' });
    }
    if (new Set(options).size !== options.length) throw new ValidationError('options must be distinct', { field: 'options' });
  }
}
