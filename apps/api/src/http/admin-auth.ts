import type { RequestHandler } from 'express';
import { DomainError, hashApiKey, hashesEqual } from '@carteiro/core';
import { bearerToken } from './auth.js';

/** Answers whether a presented admin token is right; null when no admin token is configured. */
export type AdminTokenCheck = ((token: string) => boolean) | null;

/** Builds the check from the SHA-256 of the admin token, comparing hashes in constant time. */
export function adminTokenCheck(adminTokenHash: string | undefined): AdminTokenCheck {
  if (!adminTokenHash) return null;
  return (token) => hashesEqual(hashApiKey(token), adminTokenHash);
}

/** Without a configured token the admin API does not exist (404); with one, a wrong or missing token is a 401. */
export function adminAuthenticate(check: AdminTokenCheck): RequestHandler {
  return (req, _res, next) => {
    if (!check) throw new DomainError('NOT_FOUND', `Route ${req.method} ${req.originalUrl} not found`);
    const token = bearerToken(req.headers.authorization);
    if (!token || !check(token)) throw new DomainError('UNAUTHORIZED', 'Missing or invalid admin token');
    next();
  };
}
