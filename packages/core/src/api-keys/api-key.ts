import { hash, timingSafeEqual } from 'node:crypto';
import type { Random } from '../shared/random.js';
import { ValidationError } from '../shared/errors.js';
import { ALL_SCOPES, isScope } from './scopes.js';

export type KeyMode = 'live' | 'test';

/** A stored API key. The key itself is never stored, only its SHA-256. */
export interface ApiKey {
  id: string;
  companyId: string;
  name: string;
  /** The first characters of the key, safe to show (`ak_test_ab12`). */
  prefix: string;
  keyHash: string;
  scopes: string[];
  mode: KeyMode;
  rpm: number;
  createdAt: Date;
  revokedAt: Date | null;
  /** Set on the old key when it is rotated: it answers 401 from then on. */
  expiresAt: Date | null;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 32 base62 characters carry about 190 bits: far beyond guessing, so a fast hash suffices. */
const SECRET_LENGTH = 32;
const KEY_PATTERN = /^ak_(live|test)_[0-9A-Za-z]{32}$/;

/** SHA-256 in hex, one-shot (`crypto.hash`, Node ≥ 20.12: about half the cost of a Hash object, once per request). */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** Compares two hashes without leaking, through timing, how many leading characters match. */
export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

export function looksLikeApiKey(value: string): boolean {
  return KEY_PATTERN.test(value);
}

export function generateApiKeySecret(random: Random, mode: KeyMode): { key: string; prefix: string; hash: string } {
  // Rejection sampling keeps every base62 character equally likely.
  let secret = '';
  while (secret.length < SECRET_LENGTH) {
    for (const byte of random.bytes(SECRET_LENGTH * 2)) {
      if (byte < 248 && secret.length < SECRET_LENGTH) secret += BASE62[byte % 62];
    }
  }
  const key = `ak_${mode}_${secret}`;
  return { key, prefix: key.slice(0, 12), hash: hashApiKey(key) };
}

export function validateScopes(scopes: readonly string[]): string[] {
  if (scopes.length === 0) throw new ValidationError('scopes must name at least one scope', { field: 'scopes' });
  const unknown = scopes.filter((s) => s !== ALL_SCOPES && !isScope(s));
  if (unknown.length > 0) throw new ValidationError(`Unknown scopes: ${unknown.join(', ')}`, { field: 'scopes', unknown });
  return [...new Set(scopes)];
}

/** Whether the key may authenticate a request at `now`. */
export function isKeyActive(key: ApiKey, now: Date): boolean {
  if (key.revokedAt !== null) return false;
  return key.expiresAt === null || key.expiresAt.getTime() > now.getTime();
}
