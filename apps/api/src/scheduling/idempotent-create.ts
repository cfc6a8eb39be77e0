// The idempotent creates of the scheduling routes (POST /v1/appointments, POST /v1/scheduled-messages).
import { requestFingerprint, type IdempotencyInput } from '@carteiro/core';
import type { Response } from 'express';
import { reply, type Reply } from '../http/route.js';

/** The idempotency of `POST path` with `body`: its `Idempotency-Key` (none when not sent) and the request's fingerprint. */
export function idempotencyOf(headers: Record<string, string | undefined>, path: string, body: unknown): IdempotencyInput | undefined {
  const key = headers['Idempotency-Key'];
  return key === undefined ? undefined : { key, requestHash: requestFingerprint({ method: 'POST', path, body }) };
}

/** A create's answer: the data, or on a replay the same data with `meta.idempotent_replay` and the `Idempotent-Replayed` header. */
export function createdOrReplayed<T>(res: Response, data: T, replay: boolean): T | Reply {
  if (!replay) return data;
  res.setHeader('Idempotent-Replayed', 'true');
  return reply(data, { meta: { idempotent_replay: true }, status: 201 });
}
