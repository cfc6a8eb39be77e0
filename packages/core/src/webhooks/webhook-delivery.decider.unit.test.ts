import { describe, it } from '@jest/globals';
import { InvalidTransitionError } from '../shared/errors.js';
import { messageSentEvent } from './testing/webhook-delivery-fixtures.js';
import { given } from '../shared/testing/decider-spec.js';
import { retryPolicy, webhookDeliveryDecider, type AttemptOutcome, type WebhookDelivery } from './webhook-delivery.js';

const t0 = new Date('2026-03-01T12:00:00.000Z');
const at = (ms: number) => new Date(t0.getTime() + ms);
const event = messageSentEvent(t0);
const policy = retryPolicy(100);
const status = (statusCode: number): AttemptOutcome => ({ kind: 'response', statusCode, durationMs: 12 });
const created = given(webhookDeliveryDecider, webhookDeliveryDecider.initialState())
  .when({ type: 'create', at: t0, id: 'd1', event, target: { webhookId: 'w1' } })
  .thenState({ status: 'pending' }) as WebhookDelivery;

describe('webhookDeliveryDecider', () => {
  it('given no delivery, when created for a webhook, then pending, due now, with the envelope as its body', () => {
    given(webhookDeliveryDecider, null)
      .when({ type: 'create', at: t0, id: 'd1', event, target: { callbackUrl: 'https://cb.example.com' } })
      .thenState({ webhookId: null, callbackUrl: 'https://cb.example.com', eventId: 'e1', status: 'pending', attempts: 0, nextAttemptAt: t0 });
  });

  it('given a delivery, when created again, then refused; given none, any other command is refused', () => {
    given(webhookDeliveryDecider, created).when({ type: 'create', at: t0, id: 'd2', event, target: { webhookId: 'w1' } }).thenThrows(InvalidTransitionError);
    given(webhookDeliveryDecider, null).when({ type: 'redeliver', at: t0 }).thenThrows(InvalidTransitionError);
  });

  it('given a pending delivery, when an attempt gets a 500, then the attempt is recorded as a retry and the next is due after the base delay', () => {
    given(webhookDeliveryDecider, created)
      .when({ type: 'attempt', at: at(20), startedAt: at(8), outcome: status(500), policy })
      .then([
        {
          type: 'attempted',
          at: at(20),
          attempt: { deliveryId: 'd1', number: 1, startedAt: at(8), durationMs: 12, statusCode: 500, error: 'HTTP 500', result: 'retry' },
          nextAttemptAt: at(120),
        },
      ]);
  });

  it('given a pending delivery, when an attempt gets a 204, then succeeded and completed', () => {
    given(webhookDeliveryDecider, created)
      .when({ type: 'attempt', at: at(20), startedAt: at(8), outcome: status(204), policy })
      .thenState({ status: 'succeeded', attempts: 1, roundAttempts: 1, nextAttemptAt: null, completedAt: at(20), lastStatusCode: 204, lastError: null });
  });

  it('given the last attempt of a round, when it times out, then failed', () => {
    given(webhookDeliveryDecider, { ...created, attempts: 4, roundAttempts: 4 })
      .when({ type: 'attempt', at: at(5000), startedAt: at(0), outcome: { kind: 'timeout', durationMs: 5000 }, policy })
      .thenState({ status: 'failed', attempts: 5, nextAttemptAt: null, completedAt: at(5000) });
  });

  it('given a pending delivery whose webhook went away, when abandoned, then failed without an attempt; a finished one is refused', () => {
    const abandoned = given(webhookDeliveryDecider, { ...created, lockedUntil: at(30_000) })
      .when({ type: 'abandon', at: at(10), reason: 'webhook is inactive' })
      .thenState({ status: 'failed', attempts: 0, lockedUntil: null, lastError: 'webhook is inactive', completedAt: at(10) });
    given(webhookDeliveryDecider, abandoned).when({ type: 'abandon', at: at(11), reason: 'again' }).thenThrows(InvalidTransitionError);
  });

  it('given a finished delivery, when redelivered, then a new round with the same id and body; a pending one is refused', () => {
    const failed: WebhookDelivery = { ...created, status: 'failed', attempts: 5, roundAttempts: 5, nextAttemptAt: null, completedAt: at(1) };
    given(webhookDeliveryDecider, failed)
      .when({ type: 'redeliver', at: at(60_000) })
      .thenState({ id: 'd1', payload: created.payload, status: 'pending', attempts: 5, roundAttempts: 0, nextAttemptAt: at(60_000), completedAt: null });
    given(webhookDeliveryDecider, created).when({ type: 'redeliver', at: at(1) }).thenThrows(InvalidTransitionError);
  });
});
