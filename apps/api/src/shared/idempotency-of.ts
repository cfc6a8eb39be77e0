import { requestFingerprint, type IdempotencyInput, type Principal } from '@carteiro/core';

/**
 * The idempotency of `POST path` with `body`: the `Idempotency-Key` sent (undefined without one), the request's
 * fingerprint, and the mode of the API key that sent it (test and live keys keep their keys apart).
 */
export function idempotencyOf(headers: Record<string, string | undefined>, principal: Principal, path: string, body: unknown): IdempotencyInput | undefined {
  const key = headers['Idempotency-Key'];
  return key === undefined ? undefined : { key, requestHash: requestFingerprint({ method: 'POST', path, body }), mode: principal.apiKey.mode };
}
