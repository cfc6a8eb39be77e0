import type { AttemptOutcome } from './webhook-delivery.js';

/** One HTTP POST of a signed delivery. */
export interface WebhookRequest {
  url: string;
  /** Sent byte for byte: the signature covers exactly this text. */
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
}

/**
 * Makes one delivery attempt over HTTP. Never throws for a receiver's failure: every failure is
 * an outcome. Adapters re-check the URL's safety on the address they actually connect to.
 */
export interface WebhookSender {
  send(request: WebhookRequest): Promise<AttemptOutcome>;
}
export const WebhookSender = Symbol.for('carteiro.WebhookSender');

/**
 * Decides whether a URL may receive deliveries: `https` to a public address, unless private
 * targets are allowed (development). Throws a `ValidationError` naming the problem.
 */
export interface WebhookUrlPolicy {
  check(url: string): Promise<void>;
}
export const WebhookUrlPolicy = Symbol.for('carteiro.WebhookUrlPolicy');
