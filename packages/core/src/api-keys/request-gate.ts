import type { Company } from '../companies/index.js';
import type { ApiKey } from './api-key.js';

/** Who is calling: the key and its company. */
export interface Principal {
  apiKey: ApiKey;
  company: Company;
}

/** A key found by its hash, with its company and, when it was active, the request counted. */
export interface GateEntry {
  apiKey: ApiKey;
  company: Company;
  /**
   * The key's and the company's counters of the window, including this request; null when the key
   * was revoked or expired at `now`, in which case nothing was counted.
   */
  counts: { key: number; company: number } | null;
}

/**
 * The front door of every `/v1` request in one step: resolves a key hash to the key and its company
 * and, only if the key is active at `now` (not revoked, not past `expiresAt`, as `isKeyActive`),
 * counts one request in the fixed windows starting at `windowStart` of the buckets `key:<key id>`
 * and `company:<company id>` — the counters {@link RateLimiter} purges, shared by every process.
 * The PostgreSQL adapter does it in one statement (one round trip) instead of three.
 */
export interface RequestGate {
  /** null when no key has this hash. */
  admit(keyHash: string, now: Date, windowStart: Date): Promise<GateEntry | null>;
}
export const RequestGate = Symbol.for('carteiro.RequestGate');
