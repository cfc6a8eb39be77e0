import { describe, expect, it } from '@jest/globals';
import { InvalidTransitionError } from '../shared/errors.js';
import { messageSentEvent } from './testing/webhook-delivery-fixtures.js';
import {
  classifyOutcome,
  retryDelayMs,
  runDeliveryCommand,
  retryPolicy,
  type AttemptOutcome,
  type WebhookDelivery,
} from './webhook-delivery.js';

const t0 = new Date('2026-03-01T12:00:00.000Z');
const event = messageSentEvent(t0);
const status = (statusCode: number): AttemptOutcome => ({ kind: 'response', statusCode, durationMs: 10 });
const policy = retryPolicy(100);

/** Runs attempts with the same outcome until the delivery is final; returns the attempt times. */
function runUntilFinal(outcome: AttemptOutcome): { delivery: WebhookDelivery; times: number[] } {
  let delivery = runDeliveryCommand(null, { type: 'create', at: t0, id: 'd1', event, target: { webhookId: 'w1' } }).delivery;
  const times: number[] = [];
  while (delivery.status === 'pending') {
    const when = delivery.nextAttemptAt!;
    times.push(when.getTime() - t0.getTime());
    delivery = runDeliveryCommand(delivery, { type: 'attempt', at: when, startedAt: when, outcome, policy }).delivery;
  }
  return { delivery, times };
}

describe('webhook delivery', () => {
  it('given the retry base, when attempts fail, then they are spaced by base × 1, 4, 16, 64', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(retryPolicy(30_000), n))).toEqual([30_000, 120_000, 480_000, 1_920_000]);
  });

  it('given a body fixed at fan-out, then it is the envelope of the event', () => {
    const delivery = runDeliveryCommand(null, { type: 'create', at: t0, id: 'd1', event, target: { webhookId: 'w1' } }).delivery;
    expect(JSON.parse(delivery.payload)).toEqual({
      event: 'message.sent',
      version: 'v1',
      timestamp: '2026-03-01T12:00:00.000Z',
      empresa_id: 'c1',
      setor_id: 's1',
      data: { campaignId: 'k1' },
      actor: { user_id: null, source: 'system' },
    });
    expect(delivery.nextAttemptAt).toEqual(t0);
  });

  it('classifies answers: 2xx success, 5xx/429/timeouts/network retried, other 4xx and blocked final', () => {
    expect([200, 204, 299].map((s) => classifyOutcome(status(s)))).toEqual(['success', 'success', 'success']);
    expect([500, 503, 429].map((s) => classifyOutcome(status(s)))).toEqual(['retryable', 'retryable', 'retryable']);
    expect([400, 404, 410, 301].map((s) => classifyOutcome(status(s)))).toEqual(['permanent', 'permanent', 'permanent', 'permanent']);
    expect(classifyOutcome({ kind: 'timeout', durationMs: 5000 })).toBe('retryable');
    expect(classifyOutcome({ kind: 'network_error', error: 'ECONNREFUSED', durationMs: 1 })).toBe('retryable');
    expect(classifyOutcome({ kind: 'blocked', error: 'private address', durationMs: 0 })).toBe('permanent');
  });

  it('given a receiver answering 500, when retried, then exactly 5 attempts are made and the delivery fails', () => {
    const { delivery, times } = runUntilFinal(status(500));
    expect(times).toEqual([0, 100, 500, 2100, 8500]);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 5, roundAttempts: 5, nextAttemptAt: null, lastStatusCode: 500, lastError: 'HTTP 500' });
  });

  it('given a receiver answering 400, then one attempt ends the delivery as failed', () => {
    const { delivery, times } = runUntilFinal(status(400));
    expect(times).toEqual([0]);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1, lastStatusCode: 400 });
  });

  it('given time-outs then a 200, then it is retried and succeeds on the third attempt', () => {
    let delivery = runDeliveryCommand(null, { type: 'create', at: t0, id: 'd1', event, target: { webhookId: 'w1' } }).delivery;
    const results = [];
    for (const outcome of [{ kind: 'timeout', durationMs: 5000 } as const, status(429), status(200)]) {
      const step = runDeliveryCommand(delivery, { type: 'attempt', at: t0, startedAt: t0, outcome, policy });
      delivery = step.delivery;
      results.push(step.attempt);
    }
    expect(results.map((a) => [a.number, a.statusCode, a.result])).toEqual([
      [1, null, 'retry'],
      [2, 429, 'retry'],
      [3, 200, 'succeeded'],
    ]);
    expect(results[0]?.error).toMatch(/timeout/);
    expect(delivery).toMatchObject({ id: 'd1', status: 'succeeded', attempts: 3, completedAt: t0, lastError: null });
  });

  it('redelivers a finished delivery with the same id for a new round, and refuses a pending one', () => {
    const failed = runUntilFinal(status(500)).delivery;
    const again = runDeliveryCommand(failed, { type: 'redeliver', at: new Date(t0.getTime() + 60_000) }).delivery;
    expect(again).toMatchObject({ id: 'd1', status: 'pending', attempts: 5, roundAttempts: 0, payload: failed.payload });
    const next = runDeliveryCommand(again, { type: 'attempt', at: t0, startedAt: t0, outcome: status(200), policy });
    expect(next.attempt.number).toBe(6);
    expect(() => runDeliveryCommand(again, { type: 'redeliver', at: t0 }).delivery).toThrow(InvalidTransitionError);
    expect(() => runDeliveryCommand(failed, { type: 'attempt', at: t0, startedAt: t0, outcome: status(200), policy })).toThrow(InvalidTransitionError);
  });
});
