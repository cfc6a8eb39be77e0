import { createHash } from 'node:crypto';
import type { Clock } from '../shared/clock.js';
import { DomainError, ValidationError } from '../shared/errors.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import type { CampaignRepositories } from './campaign-repositories.js';
import type { KeyMode } from '../api-keys/index.js';

/** The key a client sent, the fingerprint of its request and the mode of the API key that sent it. */
export interface IdempotencyInput {
  key: string;
  requestHash: string;
  /**
   * Test and live keys have keys of their own (as Stripe's test and live modes): one Idempotency-Key sent in both
   * modes is two requests, never a live request answered with a test one. Absent: live.
   */
  mode?: KeyMode;
}

/** Where a key is kept: live keys as sent (the records kept so far), test keys apart. */
function storedKey(input: IdempotencyInput): string {
  return input.mode === 'test' ? `test:${input.key}` : input.key;
}

/** Responses are replayed for 24 hours (the specification's idempotency cache). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A request still in flight after this long is presumed dead and its key may be taken over. */
export const IDEMPOTENCY_LOCK_MS = 60_000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** SHA-256 of a request in canonical JSON (key order does not matter). */
export function requestFingerprint(request: unknown): string {
  return createHash('sha256').update(JSON.stringify(canonical(request)) ?? '').digest('hex');
}

/**
 * Idempotency-Key handling after the IETF draft (draft-ietf-httpapi-idempotency-key-header)
 * and Stripe: the first request with a key runs and its response is kept for 24 hours per
 * company; a later request with the same key and the same body gets that response again
 * (a replay); the same key with a different body is 422 IDEMPOTENCY_KEY_MISMATCH; the same key
 * while the first request is still running is 409 IDEMPOTENCY_KEY_IN_USE. A request that ends
 * in an error keeps nothing, so that the client may retry it with the same key.
 */
export class IdempotentRequests<Areas extends object = {}> {
  constructor(
    private readonly uow: UnitOfWork<Areas & CampaignRepositories>,
    private readonly clock: Clock,
  ) {}

  async run(
    companyId: string,
    input: IdempotencyInput,
    work: (repos: Repositories<Areas & CampaignRepositories>) => Promise<{ status: number; body: unknown }>,
  ): Promise<{ status: number; body: unknown; replay: boolean }> {
    const replayed = await this.begin(companyId, input);
    if (replayed) return replayed;
    try {
      return await this.uow.transaction(async (repos) => {
        const result = await work(repos);
        await repos.idempotency.complete(companyId, storedKey(input), result.status, result.body);
        return { ...result, replay: false };
      });
    } catch (error) {
      await this.release(companyId, storedKey(input));
      throw error;
    }
  }

  /**
   * {@link run} when the client sent an `Idempotency-Key`; without one the work simply runs in a
   * transaction of its own and nothing is kept (never a replay).
   */
  async runWithOptionalKey(
    companyId: string,
    input: IdempotencyInput | undefined,
    work: (repos: Repositories<Areas & CampaignRepositories>) => Promise<{ status: number; body: unknown }>,
  ): Promise<{ status: number; body: unknown; replay: boolean }> {
    if (!input) return { ...(await this.uow.transaction(work)), replay: false };
    return this.run(companyId, input, work);
  }

  /**
   * As {@link run} for work that commits in several transactions of its own (a send through a
   * provider between them): the response is kept once the work has finished, in a transaction of
   * its own; work that throws keeps nothing.
   */
  async runAcross(companyId: string, input: IdempotencyInput, work: () => Promise<{ status: number; body: unknown }>): Promise<{ status: number; body: unknown; replay: boolean }> {
    const replayed = await this.begin(companyId, input);
    if (replayed) return replayed;
    try {
      const result = await work();
      await this.uow.transaction((repos) => repos.idempotency.complete(companyId, storedKey(input), result.status, result.body));
      return { ...result, replay: false };
    } catch (error) {
      await this.release(companyId, storedKey(input));
      throw error;
    }
  }

  /** Takes the key for this request, or answers the kept response of an earlier one (a replay); refuses a mismatch or a request in flight. */
  private async begin(companyId: string, input: IdempotencyInput): Promise<{ status: number; body: unknown; replay: true } | null> {
    if (!KEY_PATTERN.test(input.key)) {
      throw new ValidationError('Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID is recommended)', { header: 'Idempotency-Key' });
    }
    const now = this.clock.now();
    const existing = await this.uow.transaction((repos) =>
      repos.idempotency.begin(
        {
          companyId,
          key: storedKey(input),
          requestHash: input.requestHash,
          state: 'in_flight',
          responseStatus: null,
          responseBody: null,
          createdAt: now,
          lockedUntil: new Date(now.getTime() + IDEMPOTENCY_LOCK_MS),
        },
        new Date(now.getTime() - IDEMPOTENCY_TTL_MS),
      ),
    );
    if (!existing) return null;
    if (existing.requestHash !== input.requestHash) {
      throw new DomainError('IDEMPOTENCY_KEY_MISMATCH', 'This Idempotency-Key was already used with a different request body', {
        idempotency_key: input.key,
      });
    }
    if (existing.state === 'in_flight') {
      throw new DomainError('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still being processed; retry shortly', { idempotency_key: input.key }, 1);
    }
    return { status: existing.responseStatus ?? 200, body: existing.responseBody, replay: true };
  }

  private async release(companyId: string, key: string): Promise<void> {
    await this.uow.transaction((repos) => repos.idempotency.release(companyId, key)).catch(() => undefined);
  }
}
