/** A stored Idempotency-Key of a company: in flight while the first request runs, then its response. */
export interface IdempotencyRecord {
  companyId: string;
  key: string;
  /** SHA-256 of the canonical request (method, path, body). */
  requestHash: string;
  state: 'in_flight' | 'completed';
  responseStatus: number | null;
  responseBody: unknown;
  createdAt: Date;
  /** An in-flight record older than this belongs to a request that died: it may be taken over. */
  lockedUntil: Date;
}

/** Stores Idempotency-Key records (24 hours, per company). Each method is atomic on its own. */
export interface IdempotencyRepository {
  /**
   * Records `record` (in flight) unless the company already has a live record for the key:
   * answers null when this caller now owns the key, or the existing record. A record older
   * than `expiredBefore`, or in flight past its `lockedUntil`, is replaced.
   */
  begin(record: IdempotencyRecord, expiredBefore: Date): Promise<IdempotencyRecord | null>;
  complete(companyId: string, key: string, status: number, body: unknown): Promise<void>;
  /** Forgets an in-flight key whose request failed, so that the client can retry with it. */
  release(companyId: string, key: string): Promise<void>;
  purge(before: Date): Promise<number>;
}
export const IdempotencyRepository = Symbol.for('carteiro.IdempotencyRepository');
