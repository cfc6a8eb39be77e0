// The idempotent creates of the scheduling routes (POST /v1/appointments, POST /v1/scheduled-messages).
import type { ErrorCode, IdempotencyInput, Principal } from '@carteiro/core';
import type { Response } from 'express';
import { defineRoute, reply, type Reply, type RouteDefinition, type RouteSpec } from '../http/route.js';
import { s, type JsonSchema } from '../http/schema.js';
import type { Use } from '../shared/get-by-id.js';
import { idempotencyOf } from '../shared/idempotency-of.js';
import { idempotencyHeader } from './scheduling-schemas.js';

/** The fields of `clientInput` (and the box) as a create's command takes them, with the caller's company and key mode. */
export function callerAndClient(principal: Principal, body: { client_id?: string; phone?: string; name?: string; setor_id?: string }) {
  return {
    companyId: principal.company.id,
    keyMode: principal.apiKey.mode,
    clientId: body.client_id ?? null,
    phone: body.phone ?? null,
    name: body.name ?? null,
    setorId: body.setor_id ?? null,
  };
}

/**
 * `POST path` with `body`, once per `Idempotency-Key`: `create` runs with the request's
 * idempotency (see `idempotencyOf`) and its answer is sent as `createdOrReplayed` does.
 */
async function createOnce<T>(
  request: { headers: Record<string, string | undefined>; res: Response; principal: Principal },
  path: string,
  body: unknown,
  create: (idempotency: IdempotencyInput | undefined) => Promise<{ body: T; replay: boolean }>,
): Promise<T | Reply> {
  const { body: data, replay } = await create(idempotencyOf(request.headers, request.principal, path, body));
  return createdOrReplayed(request.res, data, replay);
}

/** A create's answer: the data, or on a replay the same data with `meta.idempotent_replay` and the `Idempotent-Replayed` header. */
export function createdOrReplayed<T>(res: Response, data: T, replay: boolean): T | Reply {
  if (!replay) return data;
  res.setHeader('Idempotent-Replayed', 'true');
  return reply(data, { meta: { idempotent_replay: true }, status: 201 });
}

/**
 * `POST <path>` of a scheduling record, once per `Idempotency-Key` (see `createOnce`): the 201 answer is what
 * `create` made, a replay answers it again with `meta.idempotent_replay`. `errors` are the route's own; the
 * key's IDEMPOTENCY_KEY_IN_USE and IDEMPOTENCY_KEY_MISMATCH follow them.
 */
export function idempotentCreate<Body>(
  route: Pick<RouteSpec<string, never, Body>, 'path' | 'auth' | 'operationId' | 'summary' | 'description' | 'tag'> & {
    body: NonNullable<RouteSpec<string, never, Body>['body']>;
    /** The 201 answer: what it holds and its schema. */
    response: { description: string; data: JsonSchema };
    errors: readonly ErrorCode[];
    create(use: Use, principal: Principal, body: Body, idempotency: IdempotencyInput | undefined): Promise<{ body: unknown; replay: boolean }>;
  },
): RouteDefinition {
  const { response, errors, create, ...rest } = route;
  return defineRoute<string, Record<string, never>, Body>({
    method: 'post',
    ...rest,
    headers: idempotencyHeader,
    response: { status: 201, ...response, meta: s.object({ idempotent_replay: s.boolean() }) },
    errors: [...errors, 'IDEMPOTENCY_KEY_IN_USE', 'IDEMPOTENCY_KEY_MISMATCH'],
    async handler({ body, headers, principal, use, res }) {
      return createOnce({ headers, res, principal }, route.path, body, (idempotency) => create(use, principal, body, idempotency));
    },
  });
}
