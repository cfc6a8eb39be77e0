/** One counter of a fixed-window rate limit. */
export interface RateLimitBucket {
  /** Stable name of the counter, e.g. `key:<id>` or `company:<id>`. */
  key: string;
  limit: number;
}

/** The state of one bucket after a hit. */
export interface RateLimitCount {
  key: string;
  limit: number;
  count: number;
}

/**
 * Counts requests in fixed windows shared by every process of the service (the PostgreSQL
 * adapter keeps them in a table), so several API processes enforce one count.
 */
export interface RateLimiter {
  /** Counts one request in every bucket for the window starting at `windowStart`; returns the new counts. */
  hit(buckets: readonly RateLimitBucket[], windowStart: Date): Promise<RateLimitCount[]>;
  /** Drops windows that ended before `before`. */
  purge(before: Date): Promise<number>;
}
export const RateLimiter = Symbol.for('carteiro.RateLimiter');

export const RATE_LIMIT_WINDOW_MS = 60_000;

export function windowStartOf(now: Date): Date {
  return new Date(Math.floor(now.getTime() / RATE_LIMIT_WINDOW_MS) * RATE_LIMIT_WINDOW_MS);
}
