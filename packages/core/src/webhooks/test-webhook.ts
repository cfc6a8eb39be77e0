import type { EventEnvelope } from '../shared/domain-event.js';
import { apiActor } from '../shared/domain-event.js';
import { NotFoundError } from '../shared/errors.js';
import type { Clock } from '../shared/clock.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Repositories } from '../shared/unit-of-work.js';
import { classifyOutcome, WEBHOOK_TIMEOUT_MS } from './webhook-delivery.js';
import { deliveryHeaders } from './deliver-webhooks.js';
import type { WebhookSender } from './webhook-sender.js';
import type { WebhookRepositories } from './webhook-repositories.js';

/** The answer of `POST /v1/webhooks/:id/test`. */
export interface WebhookTestResult {
  /** True when the receiver answered 2xx within 5 seconds. */
  delivered: boolean;
  /** `X-Webhook-Id` of the test request. */
  deliveryId: string;
  statusCode: number | null;
  durationMs: number;
  /** Why it failed: `HTTP 500`, a time-out, a refused connection, a blocked address; null on success. */
  error: string | null;
  /** The exact body that was sent (the envelope of the `webhook.test` event). */
  payload: EventEnvelope | Record<string, unknown>;
}

/**
 * Sends one signed `webhook.test` event to a webhook now (active or not), once, without retries
 * and without an entry in the delivery log. A receiver slower than 5 seconds counts as failed.
 */
export class TestWebhook {
  constructor(
    private readonly repos: Repositories<WebhookRepositories>,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly sender: WebhookSender,
  ) {}

  async execute(companyId: string, webhookId: string): Promise<WebhookTestResult> {
    const webhook = await this.repos.webhooks.findByIdInCompany(companyId, webhookId);
    if (!webhook) throw new NotFoundError('Webhook');
    const now = this.clock.now();
    const deliveryId = this.ids.newId();
    const payload = {
      event: 'webhook.test',
      version: 'v1',
      timestamp: now.toISOString(),
      empresa_id: companyId,
      setor_id: null,
      data: { webhook_id: webhook.id, message: 'Test delivery from Carteiro' },
      actor: apiActor,
    };
    const body = JSON.stringify(payload);
    const outcome = await this.sender.send({
      url: webhook.url,
      body,
      headers: deliveryHeaders({ id: deliveryId, event: 'webhook.test', attempt: 1 }, webhook.secret, body, now),
      timeoutMs: WEBHOOK_TIMEOUT_MS,
    });
    const delivered = classifyOutcome(outcome) === 'success';
    return {
      delivered,
      deliveryId,
      statusCode: outcome.kind === 'response' ? outcome.statusCode : null,
      durationMs: Math.round(outcome.durationMs),
      error: delivered
        ? null
        : outcome.kind === 'response'
          ? `HTTP ${outcome.statusCode}`
          : outcome.kind === 'timeout'
            ? 'timeout: no answer within 5 seconds'
            : outcome.error,
      payload,
    };
  }
}
