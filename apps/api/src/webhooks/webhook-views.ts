import type { DeliveryWithAttempts, Webhook, WebhookTestResult } from '@carteiro/core';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** The list/read form: never the secret. */
export function webhookView(w: Webhook) {
  return { id: w.id, url: w.url, events: w.events, active: w.active, created_at: iso(w.createdAt), updated_at: iso(w.updatedAt) };
}

/** The creation response: the only time the secret is shown. */
export function createdWebhookView(w: Webhook) {
  return { id: w.id, url: w.url, events: w.events, secret: w.secret, active: w.active, created_at: iso(w.createdAt) };
}

export function updatedWebhookView(w: Webhook) {
  return { id: w.id, url: w.url, events: w.events, active: w.active, updated_at: iso(w.updatedAt) };
}

function parsePayload(payload: string): unknown {
  try {
    return JSON.parse(payload);
  } catch {
    return payload;
  }
}

/** A delivery of the log with its attempts. */
export function deliveryView(d: DeliveryWithAttempts) {
  return {
    id: d.id,
    webhook_id: d.webhookId,
    event: d.event,
    event_id: d.eventId,
    status: d.status,
    attempt_count: d.attempts,
    next_attempt_at: iso(d.nextAttemptAt),
    last_status_code: d.lastStatusCode,
    last_error: d.lastError,
    created_at: iso(d.createdAt),
    updated_at: iso(d.updatedAt),
    completed_at: iso(d.completedAt),
    payload: parsePayload(d.payload),
    attempts: d.attemptLog.map((a) => ({
      number: a.number,
      started_at: iso(a.startedAt),
      duration_ms: a.durationMs,
      status_code: a.statusCode,
      error: a.error,
      result: a.result,
    })),
  };
}

export function testResultView(r: WebhookTestResult) {
  return {
    delivered: r.delivered,
    delivery_id: r.deliveryId,
    status_code: r.statusCode,
    duration_ms: r.durationMs,
    error: r.error,
    payload: r.payload,
  };
}
