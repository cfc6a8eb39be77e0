import createClient, { type Client } from 'openapi-fetch';
import { verifyWebhookSignature, type WebhookVerificationResult } from './webhook-signature.js';
import type { components, paths, webhooks } from './schema.js';

export type { components, operations, paths, webhooks } from './schema.js';
export {
  WEBHOOK_TOLERANCE_SECONDS,
  signWebhookPayload,
  verifyWebhookSignature,
  type WebhookVerification,
  type WebhookVerificationResult,
} from './webhook-signature.js';

/** How to reach the API. */
export interface CarteiroClientOptions {
  /** Where the API listens, e.g. `http://127.0.0.1:3000` (no `/v1`: the paths carry it). */
  baseUrl: string;
  /** An `ak_live_…` or `ak_test_…` key; sent as `Authorization: Bearer`. */
  apiKey: string;
  /** Another fetch (tests, proxies, retries). Defaults to the global fetch. */
  fetch?: (input: Request) => Promise<Response>;
  /** Extra headers for every request. */
  headers?: Record<string, string>;
}

/** The typed client: `client.GET('/v1/campaigns/{id}', { params: { path: { id } } })` and so on for every operation. */
export type CarteiroClient = Client<paths>;

/**
 * A client of the Carteiro API typed from its OpenAPI document: paths, parameters, bodies and both
 * the success (`data`) and error (`error`) envelopes of every operation.
 */
export function createCarteiroClient(options: CarteiroClientOptions): CarteiroClient {
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { ...options.headers, Authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

/** The error envelope's `error`, whatever the status. */
export interface CarteiroErrorBody {
  code: string;
  message: string;
  details?: Record<string, unknown>;
  retryAfter?: number;
}

/** A failed call: the HTTP status and the envelope's code, message and details. */
export class CarteiroApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> | undefined,
  ) {
    super(message);
    this.name = 'CarteiroApiError';
  }
}

type Answer<D, E> = { data?: D; error?: E; response: Response };
type Unwrapped<D> = D extends { data: infer T } ? T : D;

/**
 * The `data` of a successful call, or a thrown `CarteiroApiError`:
 * `const campaign = await unwrap(client.GET('/v1/campaigns/{id}', { params: { path: { id } } }))`.
 */
export async function unwrap<D, E>(call: Promise<Answer<D, E>>): Promise<Unwrapped<NonNullable<D>>> {
  const { data, error, response } = await call;
  if (error !== undefined || data === undefined) {
    const body = (error as { error?: CarteiroErrorBody } | undefined)?.error;
    throw new CarteiroApiError(response.status, body?.code ?? 'UNKNOWN', body?.message ?? `HTTP ${response.status}`, body?.details);
  }
  const envelope = data as { success?: unknown; data?: unknown };
  return (envelope.success === true && 'data' in envelope ? envelope.data : data) as Unwrapped<NonNullable<D>>;
}

/** Every event name a webhook can receive. */
export type WebhookEventName = keyof webhooks;

/** The envelope delivered for one event (`event`, `version`, `timestamp`, `empresa_id`, `setor_id`, `data`, `actor`). */
export type WebhookEvent<N extends WebhookEventName = WebhookEventName> = {
  [K in N]: NonNullable<webhooks[K]['post']['requestBody']>['content']['application/json'];
}[N];

/** What a webhook receiver got. Header names are matched case-insensitively. */
export interface WebhookDelivery {
  secret: string;
  /** The body exactly as received, before any JSON parsing. */
  rawBody: string | Uint8Array;
  headers: Record<string, string | string[] | undefined> | Headers;
  /** Unix seconds; defaults to now. */
  nowSeconds?: number;
  toleranceSeconds?: number;
}

function header(headers: WebhookDelivery['headers'], name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];
  return Array.isArray(entry) ? entry[0] : (entry as string | undefined);
}

/**
 * Verifies a delivery's `X-Webhook-Signature` (constant time, timestamp within 300 seconds) and
 * parses it: `{ valid: true, id, event }` with the typed envelope, or `{ valid: false, reason }`.
 */
export function readWebhook(
  delivery: WebhookDelivery,
): { valid: true; id: string | undefined; event: WebhookEvent } | Extract<WebhookVerificationResult, { valid: false }> {
  const result = verifyWebhookSignature({
    secret: delivery.secret,
    rawBody: delivery.rawBody,
    timestamp: header(delivery.headers, 'X-Webhook-Timestamp'),
    signature: header(delivery.headers, 'X-Webhook-Signature'),
    nowSeconds: delivery.nowSeconds ?? Math.floor(Date.now() / 1000),
    ...(delivery.toleranceSeconds === undefined ? {} : { toleranceSeconds: delivery.toleranceSeconds }),
  });
  if (!result.valid) return result;
  const text = typeof delivery.rawBody === 'string' ? delivery.rawBody : new TextDecoder().decode(delivery.rawBody);
  return { valid: true, id: header(delivery.headers, 'X-Webhook-Id'), event: JSON.parse(text) as WebhookEvent };
}

/** Shorthand for schemas of the document: `Schema<'CampaignDetail'>`. */
export type Schema<N extends keyof components['schemas']> = components['schemas'][N];
