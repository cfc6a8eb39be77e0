import type { Clock } from '../shared/clock.js';
import { DomainError } from '../shared/errors.js';
import { rateLimitVerdict, type RateLimitStatus } from '../rate-limits/index.js';
import { windowStartOf } from '../rate-limits/index.js';
import { hashApiKey, hashesEqual, isKeyActive, looksLikeApiKey } from './api-key.js';
import type { Principal, RequestGate } from './request-gate.js';

/** An admitted request: who calls, and what the `X-RateLimit-*` headers report. */
export interface AdmittedRequest {
  principal: Principal;
  rateLimit: RateLimitStatus;
}

const unauthorized = () => new DomainError('UNAUTHORIZED', 'Missing or invalid API key');

/**
 * Authenticates a bearer key and counts the request against the key's and the company's
 * per-minute limits, in one trip to the {@link RequestGate}. 401 for a missing, unknown, revoked or
 * expired key (never counted), 429 naming the limit exhausted.
 */
export class AuthenticateRequest {
  constructor(
    private readonly gate: RequestGate,
    private readonly clock: Clock,
  ) {}

  async execute(presented: string | undefined): Promise<AdmittedRequest> {
    if (!presented || !looksLikeApiKey(presented)) throw unauthorized();
    const hash = hashApiKey(presented);
    const now = this.clock.now();
    const windowStart = windowStartOf(now);
    const entry = await this.gate.admit(hash, now, windowStart);
    if (!entry || !entry.counts || !hashesEqual(entry.apiKey.keyHash, hash) || !isKeyActive(entry.apiKey, now)) throw unauthorized();
    const principal: Principal = { apiKey: entry.apiKey, company: entry.company };
    return { principal, rateLimit: rateLimitVerdict(principal, entry.counts.key, entry.counts.company, now, windowStart) };
  }
}
