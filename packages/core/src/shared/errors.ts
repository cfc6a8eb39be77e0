/**
 * Every error code the service answers with. The HTTP layer maps each code to its status;
 * the core only names what went wrong.
 */
export const ErrorCodes = [
  'BAD_REQUEST',
  'VALIDATION_ERROR',
  'INVALID_NUMBER',
  'UNAUTHORIZED',
  'BULK_DISABLED',
  'PLAN_EXPIRED',
  'PLAN_LIMIT_REACHED',
  'INSUFFICIENT_CREDITS',
  'FORBIDDEN',
  'MULTI_NUMBER_DISABLED',
  'SAFE_HOUR_VIOLATION',
  'CONCURRENT_LIMIT_EXCEEDED',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'CONFLICT',
  'SLOT_TAKEN',
  'APPOINTMENT_CONFLICT',
  'INVALID_TRANSITION',
  'TICKET_ACTIVE',
  'TICKET_CLOSED',
  'ALREADY_ASSIGNED',
  'PRECONDITION_FAILED',
  'NO_CONVERSATION',
  'IDEMPOTENCY_KEY_IN_USE',
  'IDEMPOTENCY_KEY_MISMATCH',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'UNPROCESSABLE',
  'WINDOW_EXPIRED',
  'TOO_MANY_REQUESTS',
  'INTERNAL_ERROR',
  'PROVIDER_ERROR',
  'SERVICE_UNAVAILABLE',
] as const;
export type ErrorCode = (typeof ErrorCodes)[number];

/** An expected failure of a use case, carried to the client in the error envelope. */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    /** Seconds the client should wait before trying again (sent as `Retry-After`). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/**
 * Refuses one more of a resource a company may hold at most `limit` of (agents, teams, tags, tag
 * rules, quick replies, contact fields): 422 UNPROCESSABLE with `details.limit`. The caller counts
 * under the company's row lock, so that concurrent creations see each other.
 */
export function assertBelowCompanyLimit(held: number, limit: number, what: string): void {
  if (held >= limit) throw new DomainError('UNPROCESSABLE', `A company has at most ${limit} ${what}`, { limit });
}

/** A missing record, or another company's record: both answer the same way. */
export class NotFoundError extends DomainError {
  constructor(what: string, details?: Record<string, unknown>) {
    super('NOT_FOUND', `${what} not found`, details);
    this.name = 'NotFoundError';
  }
}

/** Input that breaks a rule of the specification. */
export class ValidationError extends DomainError {
  constructor(message: string, details?: Record<string, unknown>, code: 'VALIDATION_ERROR' | 'BAD_REQUEST' | 'INVALID_NUMBER' = 'VALIDATION_ERROR') {
    super(code, message, details);
    this.name = 'ValidationError';
  }
}

/** A state machine refused a move; `allowed` lists the states it could have moved from. */
export class InvalidTransitionError extends DomainError {
  constructor(entity: string, status: string, action: string, allowed: readonly string[]) {
    super('INVALID_TRANSITION', `Cannot ${action} a ${entity} in status ${status}`, { status, allowed: [...allowed] });
    this.name = 'InvalidTransitionError';
  }
}

/** A write named a version (`If-Match`) that is no longer the stored one: 412 PRECONDITION_FAILED. */
export class PreconditionFailedError extends DomainError {
  constructor(entity: string, expected: number, current: number) {
    super('PRECONDITION_FAILED', `The ${entity} changed: version ${current}, not ${expected}`, { version: current });
    this.name = 'PreconditionFailedError';
  }
}
