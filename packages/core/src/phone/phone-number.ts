import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode, type PhoneNumber } from 'libphonenumber-js/core';
// The full metadata (as a JS module, not the JSON file, so that ESM loaders need no import attributes):
// the smaller "min" set only checks lengths, so it took numbers that no country issues (`+987654321`,
// or `+55 98 7654321` with a seven-digit subscriber) as valid.
import metadata from 'libphonenumber-js/max/metadata';
import { ValidationError } from '../shared/errors.js';

/** Digits with an optional leading plus, and the punctuation people type between groups. */
const ACCEPTED_SHAPE = /^\+?[\d\s().-]+$/;

/** The country of national numbers (written without their country code) when a company sets none. */
export const DEFAULT_PHONE_COUNTRY = 'BR';

/** Whether `code` is an ISO 3166-1 alpha-2 country (upper case) whose numbers can be checked. */
export function isPhoneCountry(code: unknown): code is string {
  return typeof code === 'string' && /^[A-Z]{2}$/.test(code) && isSupportedCountry(code as CountryCode, metadata);
}

/** A Brazilian mobile written with its ninth digit: +55, two-digit area code, then 9 and eight digits. */
const BR_MOBILE_WITH_NINTH = /^\+55(\d{2})9(\d{8})$/;
/** The same mobile without it: eight digits starting 6-9 (2-5 are fixed lines). */
const BR_MOBILE_WITHOUT_NINTH = /^\+55(\d{2})([6-9]\d{7})$/;

/**
 * Whether the parsed number is one its country issues. A Brazilian mobile written without its
 * ninth digit is valid when its nine-digit form is (the numbering plan lists only the new form).
 */
function isValidNumber(parsed: PhoneNumber | undefined): parsed is PhoneNumber {
  if (!parsed) return false;
  if (parsed.isValid()) return true;
  const without = BR_MOBILE_WITHOUT_NINTH.exec(parsed.number);
  return without !== null && parsePhoneNumberFromString(`+55${without[1]}9${without[2]}`, metadata)?.isValid() === true;
}

/**
 * Normalises a phone number to E.164. Accepted forms: with a plus sign and country code; digits
 * only; digits with punctuation and spaces. A number without a plus sign is read first as a
 * national number of `defaultCountry` (the company's country, e.g. `11 98765-4321` in Brazil)
 * and, when that is not a valid number there, as digits starting with the country code
 * (`5511987654321`). Without `defaultCountry` only the country-code forms are accepted.
 * A number its country does not issue (wrong length, unknown area code…) throws a 400
 * `INVALID_NUMBER`.
 *
 * The number is kept as given: a Brazilian mobile written without its ninth digit stays
 * without it (older channel accounts are registered that way); {@link phoneMatchKey} makes
 * both spellings find the same contact.
 */
export function normalizePhone(input: unknown, field = 'phone', defaultCountry?: string): string {
  const fail = (): never => {
    throw new ValidationError(`${field} is not a valid phone number`, { field, value: input }, 'INVALID_NUMBER');
  };
  if (typeof input !== 'string') return fail();
  const trimmed = input.trim();
  if (!ACCEPTED_SHAPE.test(trimmed)) return fail();
  const digits = trimmed.replace(/\D/g, '');
  if (digits.length < 8 || digits.length > 15) return fail();
  if (!trimmed.startsWith('+') && defaultCountry !== undefined && isPhoneCountry(defaultCountry)) {
    const national = parsePhoneNumberFromString(digits, { defaultCountry: defaultCountry as CountryCode, extract: false }, metadata);
    if (isValidNumber(national)) return national.number;
  }
  const international = parsePhoneNumberFromString(`+${digits}`, metadata);
  if (!isValidNumber(international)) return fail();
  return international.number;
}

/** Like {@link normalizePhone} but answers null instead of throwing. */
export function tryNormalizePhone(input: unknown, defaultCountry?: string): string | null {
  try {
    return normalizePhone(input, 'phone', defaultCountry);
  } catch {
    return null;
  }
}

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
