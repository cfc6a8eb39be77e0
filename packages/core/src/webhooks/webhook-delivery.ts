import type { DomainEvent, EventName } from '../shared/domain-event.js';
import { toEnvelope } from '../shared/domain-event.js';
import type { Decider } from '../shared/decider.js';
import { transition } from '../shared/decider.js';
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

/** Where a delivery goes: a registered webhook, or a campaign's `callback_url`. */
export type DeliveryEndpoint = { webhookId: string } | { callbackUrl: string };

/** What may be asked of a delivery; `at` is when (the caller's clock). */
export type DeliveryCommand =
  /** Fan-out: a new delivery of `event`, due at once. Only from no delivery (`null`). */
  | { type: 'create'; at: Date; id: string; event: DomainEvent; target: DeliveryEndpoint }
  /** One attempt that started at `startedAt` and ended at `at` with `outcome`. */
  | { type: 'attempt'; at: Date; startedAt: Date; outcome: AttemptOutcome; policy: RetryPolicy }
  /** Ends a pending delivery without an attempt, when its target went away (webhook deactivated). */
  | { type: 'abandon'; at: Date; reason: string }
  /** Queues a finished delivery again for a new round of attempts, with the same id and body. */
  | { type: 'redeliver'; at: Date };

/** What happened to a delivery; `evolveDelivery` applies it. */
export type DeliveryEvent =
  | { type: 'created'; delivery: WebhookDelivery }
  /** `attempt.result` says what it decided; `nextAttemptAt` is null once final. */
  | { type: 'attempted'; at: Date; attempt: DeliveryAttempt; nextAttemptAt: Date | null }
  | { type: 'abandoned'; at: Date; reason: string }
  | { type: 'redelivered'; at: Date };

/** A delivery, or `null` before fan-out creates it (the machine's initial state). */
export type DeliveryState = WebhookDelivery | null;

/**
 * Decides what a command does to a delivery. After the last allowed attempt of a round a
 * retryable outcome fails the delivery. Refuses (409 INVALID_TRANSITION) attempts and abandons
 * of finished deliveries, redeliveries of pending ones, and anything but `create` before it exists.
 */
export function decideDelivery(command: DeliveryCommand, delivery: DeliveryState): DeliveryEvent[] {
  if (command.type === 'create') {
    if (delivery) throw new InvalidTransitionError('delivery', delivery.status, 'create', []);
    return [{ type: 'created', delivery: created(command) }];
  }
  if (!delivery) throw new InvalidTransitionError('delivery', 'none', command.type, []);
  switch (command.type) {
    case 'attempt': {
      if (delivery.status !== 'pending') throw new InvalidTransitionError('delivery', delivery.status, 'attempt', ['pending']);
      const { outcome, policy, startedAt, at } = command;
      const kind = classifyOutcome(outcome);
      const roundAttempts = delivery.roundAttempts + 1;
      const { statusCode, error } = describe(outcome);
      const result: DeliveryAttempt['result'] =
        kind === 'success' ? 'succeeded' : kind === 'retryable' && roundAttempts < policy.maxAttempts ? 'retry' : 'failed';
      const attempt: DeliveryAttempt = {
        deliveryId: delivery.id,
        number: delivery.attempts + 1,
        startedAt,
        durationMs: Math.max(0, Math.round(outcome.durationMs)),
        statusCode,
        error,
        result,
      };
      const nextAttemptAt = result === 'retry' ? new Date(at.getTime() + retryDelayMs(policy, roundAttempts)) : null;
      return [{ type: 'attempted', at, attempt, nextAttemptAt }];
    }
    case 'abandon':
      if (delivery.status !== 'pending') throw new InvalidTransitionError('delivery', delivery.status, 'abandon', ['pending']);
      return [{ type: 'abandoned', at: command.at, reason: command.reason }];
    case 'redeliver':
      if (delivery.status === 'pending') throw new InvalidTransitionError('delivery', delivery.status, 'redeliver', ['succeeded', 'failed']);
      return [{ type: 'redelivered', at: command.at }];
  }
}

function created(command: Extract<DeliveryCommand, { type: 'create' }>): WebhookDelivery {
  const { id, event, target, at } = command;
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
    nextAttemptAt: at,
    lockedUntil: null,
    lastStatusCode: null,
    lastError: null,
    createdAt: at,
    updatedAt: at,
    completedAt: null,
  };
}

/** Applies an event to a delivery (every event but `created` needs one). */
export function evolveDelivery(delivery: DeliveryState, event: DeliveryEvent): DeliveryState {
  if (event.type === 'created') return event.delivery;
  if (!delivery) return delivery;
  switch (event.type) {
    case 'attempted': {
      const { attempt, at } = event;
      const final = attempt.result !== 'retry';
      return {
        ...delivery,
        status: attempt.result === 'retry' ? 'pending' : attempt.result,
        attempts: attempt.number,
        roundAttempts: delivery.roundAttempts + 1,
        nextAttemptAt: event.nextAttemptAt,
        lockedUntil: null,
        lastStatusCode: attempt.statusCode,
        lastError: attempt.error,
        updatedAt: at,
        completedAt: final ? at : null,
      };
    }
    case 'abandoned':
      return { ...delivery, status: 'failed', nextAttemptAt: null, lockedUntil: null, lastError: event.reason, updatedAt: event.at, completedAt: event.at };
    case 'redelivered':
      return { ...delivery, status: 'pending', roundAttempts: 0, nextAttemptAt: event.at, lockedUntil: null, updatedAt: event.at, completedAt: null };
  }
}

/**
 * The state machine of one webhook delivery: created pending, attempted until it succeeds or
 * fails (retrying with the policy's back-off), abandoned when its webhook went away, and
 * redelivered for a new round. Starts from `null` (no delivery yet).
 */
export const webhookDeliveryDecider: Decider<DeliveryState, DeliveryCommand, DeliveryEvent> & { initialState(): DeliveryState } = {
  initialState: () => null,
  decide: decideDelivery,
  evolve: evolveDelivery,
};

/**
 * Runs one command through {@link webhookDeliveryDecider} and answers in the shape the
 * repository stores: the delivery after it, and the attempt it made (null for other commands).
 * Throws what the decider throws.
 */
export function runDeliveryCommand(
  delivery: DeliveryState,
  command: Extract<DeliveryCommand, { type: 'attempt' }>,
): { delivery: WebhookDelivery; attempt: DeliveryAttempt };
export function runDeliveryCommand(delivery: DeliveryState, command: DeliveryCommand): { delivery: WebhookDelivery; attempt: DeliveryAttempt | null };
export function runDeliveryCommand(delivery: DeliveryState, command: DeliveryCommand): { delivery: WebhookDelivery; attempt: DeliveryAttempt | null } {
  const { state, events } = transition(webhookDeliveryDecider, delivery, command);
  // Every accepted command leaves a delivery: `create` makes one, the others need one.
  if (!state) throw new InvalidTransitionError('delivery', 'none', command.type, []);
  let attempt: DeliveryAttempt | null = null;
  for (const event of events) if (event.type === 'attempted') attempt = event.attempt;
  return { delivery: state, attempt };
}
