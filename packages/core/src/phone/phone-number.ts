import { parsePhoneNumberFromString } from 'libphonenumber-js/core';
// The metadata as a JS module (not the JSON file), so that ESM loaders need no import attributes.
import metadata from 'libphonenumber-js/min/metadata';
import { ValidationError } from '../shared/errors.js';

/** Digits with an optional leading plus, and the punctuation people type between groups. */
const ACCEPTED_SHAPE = /^\+?[\d\s().-]+$/;

/**
 * Normalises a phone number given in one of the three accepted forms (with a plus sign,
 * digits only, or with punctuation and spaces, always with the country code) to E.164.
 * Anything else throws a 400 `INVALID_NUMBER`.
 *
 * The number is kept as given: a Brazilian mobile written without its ninth digit stays
 * without it (older channel accounts are registered that way); {@link phoneMatchKey} makes
 * both spellings find the same contact.
 */
export function normalizePhone(input: unknown, field = 'phone'): string {
  const fail = (): never => {
    throw new ValidationError(`${field} is not a valid phone number with country code`, { field, value: input }, 'INVALID_NUMBER');
  };
  if (typeof input !== 'string') return fail();
  const trimmed = input.trim();
  if (!ACCEPTED_SHAPE.test(trimmed)) return fail();
  const digits = trimmed.replace(/\D/g, '');
  if (digits.length < 8 || digits.length > 15) return fail();
  const parsed = parsePhoneNumberFromString(`+${digits}`, metadata);
  if (!parsed || !parsed.isValid()) return fail();
  return parsed.number;
}

/** Like {@link normalizePhone} but answers null instead of throwing. */
export function tryNormalizePhone(input: unknown): string | null {
  try {
    return normalizePhone(input);
  } catch {
    return null;
  }
}

/** A Brazilian mobile written with its ninth digit: +55, two-digit area code, then 9 and eight digits. */
const BR_MOBILE_WITH_NINTH = /^\+55(\d{2})9(\d{8})$/;
/** The same mobile without it: eight digits starting 6-9 (2-5 are fixed lines). */
const BR_MOBILE_WITHOUT_NINTH = /^\+55(\d{2})([6-9]\d{7})$/;

/**
 * The key under which a number is matched: E.164 itself, except Brazilian mobiles, which
 * lose their ninth digit so that `+55 11 9XXXX-XXXX` and `+55 11 XXXX-XXXX` meet.
 * Contacts are unique per company by this key.
 */
export function phoneMatchKey(e164: string): string {
  const withNinth = BR_MOBILE_WITH_NINTH.exec(e164);
  if (withNinth && /^[6-9]/.test(withNinth[2]!)) return `+55${withNinth[1]}${withNinth[2]}`;
  return e164;
}

/** Every spelling of a number that shares its match key (both forms of a Brazilian mobile). */
export function phoneVariants(e164: string): string[] {
  const key = phoneMatchKey(e164);
  const without = BR_MOBILE_WITHOUT_NINTH.exec(key);
  if (without) return [`+55${without[1]}9${without[2]}`, key];
  return [e164];
}

/** Whether two E.164 numbers are the same line (ninth-digit aware). */
export function samePhone(a: string, b: string): boolean {
  return phoneMatchKey(a) === phoneMatchKey(b);
}
