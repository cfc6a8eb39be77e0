import { isEventName, type EventName } from '../shared/domain-event.js';
import { ValidationError } from '../shared/errors.js';
import type { Random } from '../shared/random.js';

/** A company's subscription: signed deliveries of the named events to one URL. */
export interface Webhook {
  id: string;
  companyId: string;
  url: string;
  /** Unique event names, in the order the client gave them. */
  events: EventName[];
  /** 64 lowercase hex characters; shown to the client only in the creation response. */
  secret: string;
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** Bytes of key material in a webhook secret (hex-encoded: 64 characters). */
export const WEBHOOK_SECRET_BYTES = 32;

export function newWebhookSecret(random: Random): string {
  return Buffer.from(random.bytes(WEBHOOK_SECRET_BYTES)).toString('hex');
}

/**
 * Checks a list of event names: at least one, every one known. Duplicates are dropped, so that
 * a subscription delivers an event once.
 */
export function parseEventNames(events: readonly string[]): EventName[] {
  if (events.length === 0) throw new ValidationError('events must name at least one event', { field: 'events' });
  const unknown = events.filter((e) => !isEventName(e));
  if (unknown.length > 0) {
    throw new ValidationError('Unknown event names', { field: 'events', unknown });
  }
  return [...new Set(events as EventName[])];
}

export interface NewWebhook {
  url: string;
  events: readonly string[];
  active?: boolean;
}

export function createWebhook(id: string, companyId: string, secret: string, now: Date, input: NewWebhook): Webhook {
  return {
    id,
    companyId,
    url: input.url,
    events: parseEventNames(input.events),
    secret,
    active: input.active ?? true,
    createdAt: now,
    updatedAt: now,
  };
}

export interface WebhookChanges {
  url?: string;
  events?: readonly string[];
  active?: boolean;
}

export function changeWebhook(webhook: Webhook, changes: WebhookChanges, now: Date): Webhook {
  return {
    ...webhook,
    url: changes.url ?? webhook.url,
    events: changes.events !== undefined ? parseEventNames(changes.events) : webhook.events,
    active: changes.active ?? webhook.active,
    updatedAt: now,
  };
}

/** Whether a new event of this name must be delivered to the webhook. */
export function subscribesTo(webhook: Webhook, event: EventName): boolean {
  return webhook.active && webhook.events.includes(event);
}
