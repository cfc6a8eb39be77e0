import type { Principal } from '../api-keys/authenticate.js';
import { effectiveSettings } from '../companies/company.js';
import type { Clock } from '../shared/clock.js';
import { DomainError } from '../shared/errors.js';
import { RATE_LIMIT_WINDOW_MS, windowStartOf, type RateLimitBucket, type RateLimiter } from './rate-limiter.js';

/** What the `X-RateLimit-*` headers report after a request was counted. */
export interface RateLimitStatus {
  limit: number;
  remaining: number;
  /** Unix seconds when the window restarts. */
  reset: number;
}

/** The two counters a request is counted in: its key's and its company's. */
export function rateLimitBuckets(principal: Principal): RateLimitBucket[] {
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
export function rateLimitVerdict(principal: Principal, keyCount: number, companyCount: number, now: Date, windowStart: Date): RateLimitStatus {
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

/**
 * Counts a request against the key's and the company's per-minute limits (a fixed window of
 * 60 seconds). The effective limit is the smaller of the two; the one exhausted first is named
 * in the 429.
 */
export class EnforceRateLimit {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly clock: Clock,
  ) {}

  async execute(principal: Principal): Promise<RateLimitStatus> {
    const now = this.clock.now();
    const windowStart = windowStartOf(now);
    const [key, company] = await this.limiter.hit(rateLimitBuckets(principal), windowStart);
    return rateLimitVerdict(principal, key!.count, company!.count, now, windowStart);
  }
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
