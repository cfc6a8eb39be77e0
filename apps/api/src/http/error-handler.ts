import type { ErrorRequestHandler, RequestHandler } from 'express';
import { DomainError, type ErrorCode } from '@carteiro/core';
import { RateLimitExceeded, TransactionConflict } from '@carteiro/core';

/** The HTTP status of every error code: the one place where domain errors meet HTTP. */
export const statusOf: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  VALIDATION_ERROR: 400,
  INVALID_NUMBER: 400,
  UNAUTHORIZED: 401,
  BULK_DISABLED: 402,
  PLAN_EXPIRED: 402,
  PLAN_LIMIT_REACHED: 402,
  INSUFFICIENT_CREDITS: 402,
  FORBIDDEN: 403,
  MULTI_NUMBER_DISABLED: 403,
  SAFE_HOUR_VIOLATION: 403,
  CONCURRENT_LIMIT_EXCEEDED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  SLOT_TAKEN: 409,
  APPOINTMENT_CONFLICT: 409,
  INVALID_TRANSITION: 409,
  TICKET_ACTIVE: 409,
  TICKET_CLOSED: 409,
  ALREADY_ASSIGNED: 409,
  PRECONDITION_FAILED: 412,
  NO_CONVERSATION: 422,
  IDEMPOTENCY_KEY_IN_USE: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  IDEMPOTENCY_KEY_MISMATCH: 422,
  UNPROCESSABLE: 422,
  WINDOW_EXPIRED: 422,
  TOO_MANY_REQUESTS: 429,
  INTERNAL_ERROR: 500,
  PROVIDER_ERROR: 502,
  SERVICE_UNAVAILABLE: 503,
};

interface HttpParserError {
  type?: string;
  status?: number;
  statusCode?: number;
}

/** body-parser's errors, mapped to the envelope instead of its HTML page. */
function fromParser(error: HttpParserError): DomainError | null {
  switch (error.type) {
    case 'entity.parse.failed':
      return new DomainError('BAD_REQUEST', 'Malformed JSON body');
    case 'entity.too.large':
      return new DomainError('PAYLOAD_TOO_LARGE', 'Request body too large');
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported body encoding');
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return new DomainError('BAD_REQUEST', 'Invalid request body');
    default:
      return null;
  }
}

export interface ErrorLogger {
  error(obj: unknown, msg?: string): void;
}

/**
 * PostgreSQL rolled the request's transaction back to break a deadlock or a serialization conflict with another: nothing
 * was written (UnitOfWork's contract), so the client may send the same request again at once.
 */
function conflictVictim(): DomainError {
  return new DomainError('SERVICE_UNAVAILABLE', 'The request conflicted with a concurrent one and was not applied; send it again', undefined, 1);
}

/** Maps any error to the specification's envelope; unknown errors become a logged 500. */
export function errorHandler(logger: ErrorLogger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const domain = err instanceof DomainError ? err : err instanceof TransactionConflict ? conflictVictim() : fromParser(err as HttpParserError);
    if (!domain) {
      // req.log carries the request id; the process logger is the fallback.
      const log = (req as { log?: ErrorLogger }).log ?? logger;
      log.error({ err, method: req.method, url: req.originalUrl }, 'unhandled error');
      res.status(500).json({ success: false, error: { code: 'INTERNAL_ERROR', message: 'Internal server error' } });
      return;
    }
    if (domain instanceof RateLimitExceeded) {
      res.setHeader('X-RateLimit-Limit', String(domain.status.limit));
      res.setHeader('X-RateLimit-Remaining', '0');
      res.setHeader('X-RateLimit-Reset', String(domain.status.reset));
    }
    if (domain.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(domain.retryAfterSeconds));
    const error: Record<string, unknown> = { code: domain.code, message: domain.message };
    if (domain.details) error.details = domain.details;
    const body: Record<string, unknown> = { success: false, error };
    // The specification puts retryAfter in the 429 body itself.
    if (domain.code === 'TOO_MANY_REQUESTS' && domain.retryAfterSeconds !== undefined) {
      error.retryAfter = domain.retryAfterSeconds;
      body.retryAfter = domain.retryAfterSeconds;
    }
    res.status(statusOf[domain.code]).json(body);
  };
}

/** Unknown routes answer 404 in the envelope. */
export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new DomainError('NOT_FOUND', `Route ${req.method} ${req.baseUrl}${req.path} not found`));
};

/**
 * Bodies must be JSON (anything else with a body is a 415), read by `parser` (express.json). One layer for
 * both, and requests without a body (the reads) pass without the parser: it would find nothing to read, and
 * `readRequest` takes a missing body as `{}` as it takes an empty one.
 */
export function jsonBodies(parser: RequestHandler): RequestHandler {
  return (req, res, next) => {
    const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    if (!hasBody) {
      next();
      return;
    }
    if (!req.is('application/json')) {
      next(new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json'));
      return;
    }
    void parser(req, res, next);
  };
}
