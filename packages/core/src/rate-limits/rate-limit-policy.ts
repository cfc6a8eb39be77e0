import { effectiveSettings, type Company } from '../companies/index.js';
import { DomainError } from '../shared/errors.js';
import { RATE_LIMIT_WINDOW_MS, type RateLimitBucket } from './rate-limiter.js';

/** Who a request is counted for: a key (its id and per-minute limit) and its company. */
export interface RateLimited {
  apiKey: { id: string; rpm: number };
  company: Company;
}

/** What the `X-RateLimit-*` headers report after a request was counted. */
export interface RateLimitStatus {
  limit: number;
  remaining: number;
  /** Unix seconds when the window restarts. */
  reset: number;
}

/** The two counters a request is counted in: its key's and its company's. */
export function rateLimitBuckets(principal: RateLimited): RateLimitBucket[] {
  return [
    { key: `key:${principal.apiKey.id}`, limit: principal.apiKey.rpm },
    { key: `company:${principal.company.id}`, limit: effectiveSettings(principal.company).companyRpm },
  ];
}

/**
 * The verdict on a request already counted: `keyCount` and `companyCount` are the counters of the
 * window starting at `windowStart` including this request. Returns the headers' status, or throws
 * {@link RateLimitExceeded} naming the limit exhausted (the key's first).
 */
export function rateLimitVerdict(principal: RateLimited, keyCount: number, companyCount: number, now: Date, windowStart: Date): RateLimitStatus {
  const keyLimit = principal.apiKey.rpm;
  const companyLimit = effectiveSettings(principal.company).companyRpm;
  const resetMs = windowStart.getTime() + RATE_LIMIT_WINDOW_MS;
  const status: RateLimitStatus = {
    limit: Math.min(keyLimit, companyLimit),
    remaining: Math.max(0, Math.min(keyLimit - keyCount, companyLimit - companyCount)),
    reset: Math.ceil(resetMs / 1000),
  };
  const exceeded = keyCount > keyLimit ? 'key' : companyCount > companyLimit ? 'company' : null;
  if (exceeded) {
    const retryAfter = Math.max(1, Math.ceil((resetMs - now.getTime()) / 1000));
    const limit = exceeded === 'key' ? keyLimit : companyLimit;
    throw new RateLimitExceeded(exceeded, limit, retryAfter, status);
  }
  return status;
}

/** 429: the message names which limit (key or company) was exceeded. */
export class RateLimitExceeded extends DomainError {
  constructor(
    readonly scope: 'key' | 'company',
    limit: number,
    retryAfterSeconds: number,
    readonly status: RateLimitStatus,
  ) {
    super(
      'TOO_MANY_REQUESTS',
      `Rate limit exceeded for this ${scope === 'key' ? 'API key' : 'company'}: ${limit} requests per minute`,
      { limit_scope: scope, limit, retryAfter: retryAfterSeconds },
      retryAfterSeconds,
    );
    this.name = 'RateLimitExceeded';
  }
}
