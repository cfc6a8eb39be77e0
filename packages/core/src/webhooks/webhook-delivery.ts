import type { DomainEvent, EventName } from '../shared/domain-event.js';
import { toEnvelope } from '../shared/domain-event.js';
import { InvalidTransitionError } from '../shared/errors.js';

/** `pending` until a 2xx (`succeeded`) or a final failure (`failed`). */
export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

/**
 * One event on its way to one target: a registered webhook, or a campaign's `callback_url`.
 * Its id is the `X-Webhook-Id` of every attempt, so receivers can deduplicate retries.
 */
export interface WebhookDelivery {
  id: string;
  companyId: string;
  /** The registered webhook; null for a campaign's `callback_url`. */
  webhookId: string | null;
  /** Target of a `callback_url` delivery; null for webhook deliveries (their URL is the webhook's). */
  callbackUrl: string | null;
  eventId: string;
  event: EventName;
  /** The raw JSON body, fixed at fan-out so that every attempt sends the same bytes. */
  payload: string;
  status: DeliveryStatus;
  /** Attempts made over the delivery's life (numbers the attempts). */
  attempts: number;
  /** Attempts made since the delivery was last (re)queued; at most `maxAttempts`. */
  roundAttempts: number;
  /** When the next attempt is due; null once the delivery is final. */
  nextAttemptAt: Date | null;
  /** A worker holds the delivery until this instant; another may take it over afterwards. */
  lockedUntil: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
}

/** What happened when one attempt was made: an answer, no answer in time, or no connection. */
export type AttemptOutcome =
  | { kind: 'response'; statusCode: number; durationMs: number }
  | { kind: 'timeout'; durationMs: number }
  | { kind: 'network_error'; error: string; durationMs: number }
  /** The target is not allowed (private address at connection time, bad URL): never retried. */
  | { kind: 'blocked'; error: string; durationMs: number };

/** The record of one attempt, readable in the delivery log. */
export interface DeliveryAttempt {
  deliveryId: string;
  /** 1, 2, … over the delivery's life (a redelivery goes on counting). */
  number: number;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  /** What the attempt decided: done, try again later, or give up. */
  result: 'succeeded' | 'retry' | 'failed';
}

/** Timing of attempts: `WEBHOOK_RETRY_BASE_MS`, each delay 4 times the previous, 5 attempts. */
export interface RetryPolicy {
  baseMs: number;
  maxAttempts: number;
  factor: number;
}
export const RetryPolicy = Symbol.for('carteiro.RetryPolicy');

export const DEFAULT_RETRY_BASE_MS = 30_000;
export const WEBHOOK_MAX_ATTEMPTS = 5;
/** A receiver must answer within this (deliveries and the test endpoint alike). */
export const WEBHOOK_TIMEOUT_MS = 5_000;

export function retryPolicy(baseMs = DEFAULT_RETRY_BASE_MS): RetryPolicy {
  return { baseMs, maxAttempts: WEBHOOK_MAX_ATTEMPTS, factor: 4 };
}

/** Delay before attempt `attempt + 1`, after attempt `attempt` failed: base × 1, 4, 16, 64. */
export function retryDelayMs(policy: RetryPolicy, attempt: number): number {
  return policy.baseMs * policy.factor ** (attempt - 1);
}

/** 2xx ends it; 5xx, 429, time-outs and network errors may be retried; any other answer ends it as failed. */
export function classifyOutcome(outcome: AttemptOutcome): 'success' | 'retryable' | 'permanent' {
  switch (outcome.kind) {
    case 'response':
      if (outcome.statusCode >= 200 && outcome.statusCode < 300) return 'success';
      if (outcome.statusCode >= 500 || outcome.statusCode === 429) return 'retryable';
      return 'permanent';
    case 'timeout':
    case 'network_error':
      return 'retryable';
    case 'blocked':
      return 'permanent';
  }
}

function describe(outcome: AttemptOutcome): { statusCode: number | null; error: string | null } {
  switch (outcome.kind) {
    case 'response':
      return { statusCode: outcome.statusCode, error: outcome.statusCode >= 200 && outcome.statusCode < 300 ? null : `HTTP ${outcome.statusCode}` };
    case 'timeout':
      return { statusCode: null, error: 'timeout: no answer within 5 seconds' };
    case 'network_error':
    case 'blocked':
      return { statusCode: null, error: outcome.error };
  }
}

export function newDelivery(
  id: string,
  event: DomainEvent,
  target: { webhookId: string } | { callbackUrl: string },
  now: Date,
): WebhookDelivery {
  return {
    id,
    companyId: event.companyId,
    webhookId: 'webhookId' in target ? target.webhookId : null,
    callbackUrl: 'callbackUrl' in target ? target.callbackUrl : null,
    eventId: event.id,
    event: event.event,
    payload: JSON.stringify(toEnvelope(event)),
    status: 'pending',
    attempts: 0,
    roundAttempts: 0,
    nextAttemptAt: now,
    lockedUntil: null,
    lastStatusCode: null,
    lastError: null,
    createdAt: now,
    updatedAt: now,
    completedAt: null,
  };
}

/**
 * The delivery after one attempt that started at `startedAt` and ended at `now`, and the record
 * of that attempt. After the last allowed attempt a retryable outcome fails the delivery.
 */
export function afterAttempt(
  delivery: WebhookDelivery,
  outcome: AttemptOutcome,
  startedAt: Date,
  now: Date,
  policy: RetryPolicy,
): { delivery: WebhookDelivery; attempt: DeliveryAttempt } {
  if (delivery.status !== 'pending') throw new InvalidTransitionError('delivery', delivery.status, 'attempt', ['pending']);
  const kind = classifyOutcome(outcome);
  const roundAttempts = delivery.roundAttempts + 1;
  const number = delivery.attempts + 1;
  const { statusCode, error } = describe(outcome);
  const result: DeliveryAttempt['result'] =
    kind === 'success' ? 'succeeded' : kind === 'retryable' && roundAttempts < policy.maxAttempts ? 'retry' : 'failed';
  const final = result !== 'retry';
  return {
    delivery: {
      ...delivery,
      status: result === 'retry' ? 'pending' : result,
      attempts: number,
      roundAttempts,
      nextAttemptAt: final ? null : new Date(now.getTime() + retryDelayMs(policy, roundAttempts)),
      lockedUntil: null,
      lastStatusCode: statusCode,
      lastError: error,
      updatedAt: now,
      completedAt: final ? now : null,
    },
    attempt: { deliveryId: delivery.id, number, startedAt, durationMs: Math.max(0, Math.round(outcome.durationMs)), statusCode, error, result },
  };
}

/**
 * Ends a pending delivery without an attempt, when its target went away (webhook deactivated)
 * after the delivery was created.
 */
export function abandonDelivery(delivery: WebhookDelivery, reason: string, now: Date): WebhookDelivery {
  return { ...delivery, status: 'failed', nextAttemptAt: null, lockedUntil: null, lastError: reason, updatedAt: now, completedAt: now };
}

/** Queues a finished delivery again for a new round of attempts, with the same id and body. */
export function redeliver(delivery: WebhookDelivery, now: Date): WebhookDelivery {
  if (delivery.status === 'pending') {
    throw new InvalidTransitionError('delivery', delivery.status, 'redeliver', ['succeeded', 'failed']);
  }
  return { ...delivery, status: 'pending', roundAttempts: 0, nextAttemptAt: now, lockedUntil: null, updatedAt: now, completedAt: null };
}
