import { expect } from '@jest/globals';
import { sql } from 'kysely';
import type { Response } from 'supertest';
import type { TestApi, TestTenant } from './test-api.js';

/**
 * A tenant (company, key, connected box) whose rate limits never answer a race's burst with 429: the company's and
 * the key's requests per minute are far above what a test sends.
 */
export function unthrottledTenant(api: TestApi, settings: Record<string, unknown> = {}): Promise<TestTenant> {
  return api.createTenant({ settings: { company_rpm: 100_000, ...settings }, key: { rpm: 10_000 } });
}

/** `n` calls started at once (call `i` gets its index), awaited together: the requests of a race. */
export function concurrently<T>(n: number, call: (i: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => call(i)));
}

/** The answers' statuses in ascending order (a race decides which request wins, not the order of the answers). */
export function sortedStatuses(answers: readonly { status: number }[]): number[] {
  return answers.map((a) => a.status).sort((a, b) => a - b);
}

/** The count a `SELECT count(*) AS n …` statement answers. */
export async function countOf(api: TestApi, query: ReturnType<typeof sql<{ n: string }>>): Promise<number> {
  return Number((await query.execute(api.database.db)).rows[0]!.n);
}

/** How {@link expectOneIdempotentEffect} recognises the one effect and the refusals. */
export interface IdempotentRaceOptions {
  /** What names the effect in `data` (default its `id`). */
  idOf?: (data: Record<string, unknown>) => unknown;
  /** The 409 codes a request that came while the first was in flight may answer (default IDEMPOTENCY_KEY_IN_USE). */
  inFlightCodes?: readonly string[];
}

/**
 * Checks the answers of requests sent at once with one Idempotency-Key: exactly one did the work (`status`, no
 * `meta.idempotent_replay`); each other one replays it (same status and effect, `meta.idempotent_replay`) or answers
 * 409 with one of `inFlightCodes` (the first was still in flight). Answers the first one.
 */
export function expectOneIdempotentEffect(answers: readonly Response[], status: number, options: IdempotentRaceOptions = {}): Response {
  const { idOf = (d) => d.id, inFlightCodes = ['IDEMPOTENCY_KEY_IN_USE'] } = options;
  const first = answers.filter((a) => a.status === status && !a.body.meta?.idempotent_replay);
  expect(first).toHaveLength(1);
  for (const a of answers) {
    if (a === first[0]) continue;
    if (a.status === status) expect([a.body.meta.idempotent_replay, idOf(a.body.data)]).toEqual([true, idOf(first[0]!.body.data)]);
    else expect([a.status, inFlightCodes.includes(a.body.error.code)]).toEqual([409, true]);
  }
  return first[0]!;
}
