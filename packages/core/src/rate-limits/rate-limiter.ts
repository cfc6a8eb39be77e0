/** One counter of a fixed-window rate limit. */
export interface RateLimitBucket {
  /** Stable name of the counter, e.g. `key:<id>` or `company:<id>`. */
  key: string;
  limit: number;
}

/**
 * The fixed-window request counters shared by every process of the service (the PostgreSQL
 * adapter keeps them in a table). The {@link RequestGate} counts into them; this port drops old windows.
 */
export interface RateLimiter {
  /** Drops windows that ended before `before`. */
  purge(before: Date): Promise<number>;
}
export const RateLimiter = Symbol.for('carteiro.RateLimiter');

export const RATE_LIMIT_WINDOW_MS = 60_000;

export function windowStartOf(now: Date): Date {
  return new Date(Math.floor(now.getTime() / RATE_LIMIT_WINDOW_MS) * RATE_LIMIT_WINDOW_MS);
}
