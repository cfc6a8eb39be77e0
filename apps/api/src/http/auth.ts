import type { Request, RequestHandler } from 'express';
import { AuthenticateRequest, DomainError, hasScope, type Principal, type Scope } from '@carteiro/core';

/** `Authorization: Bearer <key>` → the key, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by `authenticate` on every /v1 request. */
    principal?: Principal;
  }
}

/**
 * Resolves the bearer key, counts the request against the rate limits (one database round trip
 * for both) and sets the `X-RateLimit-*` headers.
 */
export function authenticate(authenticator: AuthenticateRequest): RequestHandler {
  return async (req, res, next) => {
    const { principal, rateLimit } = await authenticator.execute(bearerToken(req.headers.authorization));
    req.principal = principal;
    res.setHeader('X-RateLimit-Limit', String(rateLimit.limit));
    res.setHeader('X-RateLimit-Remaining', String(rateLimit.remaining));
    res.setHeader('X-RateLimit-Reset', String(rateLimit.reset));
    next();
  };
}

/** The caller of a /v1 request. */
export function auth(req: Request): Principal {
  if (!req.principal) throw new DomainError('UNAUTHORIZED', 'Missing or invalid API key');
  return req.principal;
}

/** A middleware that lets the request through only when its key has `scope`; the scope is readable for route tables. */
export type ScopeGuard = RequestHandler & { scope: Scope };

export function requireScope(scope: Scope): ScopeGuard {
  const guard: RequestHandler = (req, _res, next) => {
    if (!hasScope(auth(req).apiKey.scopes, scope)) {
      throw new DomainError('FORBIDDEN', `This API key lacks the scope ${scope}`, { required_scope: scope });
    }
    next();
  };
  return Object.assign(guard, { scope });
}
