import type { Request, RequestHandler } from 'express';
import { AuthenticateApiKey, DomainError, EnforceRateLimit, bearerToken, hasScope, type Principal, type Scope } from '@carteiro/core';

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by `authenticate` on every /v1 request. */
    principal?: Principal;
  }
}

/** Resolves the bearer key, counts the request against the rate limits and sets the `X-RateLimit-*` headers. */
export function authenticate(authenticator: AuthenticateApiKey, rateLimit: EnforceRateLimit): RequestHandler {
  return async (req, res, next) => {
    const principal = await authenticator.execute(bearerToken(req.headers.authorization));
    req.principal = principal;
    const status = await rateLimit.execute(principal);
    res.setHeader('X-RateLimit-Limit', String(status.limit));
    res.setHeader('X-RateLimit-Remaining', String(status.remaining));
    res.setHeader('X-RateLimit-Reset', String(status.reset));
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
