import { timingSafeEqual } from 'node:crypto';
import { ChannelsSettings, parseCloudApiWebhook, parseEvolutionWebhook, verifyCloudApiSignature, type ChannelsConfig, type ProviderWebhookBatch } from '@carteiro/channels';
import { DomainError, ReceiveProviderWebhook, type ProviderWebhookOutcome } from '@carteiro/core';
import { parseJsonOrNull, readBodyUpTo } from '../http/read-body.js';
import { defineRoute } from '../http/route.js';
import { s, typed } from '../http/schema.js';

/** The largest webhook body read (providers batch at most a few hundred small items). */
const MAX_BODY_BYTES = 1_000_000;

/** The raw body of a public route (no JSON parser runs in front of them): the signature covers these bytes. */
async function readRaw(req: AsyncIterable<unknown>): Promise<Buffer> {
  const raw = await readBodyUpTo(req, MAX_BODY_BYTES);
  if (raw === null) throw new DomainError('VALIDATION_ERROR', `The body is larger than ${MAX_BODY_BYTES} bytes`);
  return raw;
}

function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const unauthorized = () => new DomainError('UNAUTHORIZED', 'The webhook is not signed with this service\'s provider secret');

const outcomeSchema = s.object({
  batches: s.integer({ maximum: 1000, description: 'Accounts (instances, phone numbers) the call carried.' }),
  unknown_accounts: s.integer({ maximum: 1000, description: 'Of them, accounts no box matches (ignored).' }),
  received: s.integer({ maximum: 100000, description: 'Inbound messages handled.' }),
  duplicates: s.integer({ maximum: 100000, description: 'Inbound messages whose provider id was received before (ignored).' }),
  rejected: s.integer({ maximum: 100000, description: 'Inbound messages refused (e.g. an unreadable number).' }),
  receipts: s.integer({ maximum: 100000, description: 'Receipts that moved a message forward.' }),
});

async function handle(batches: ProviderWebhookBatch[], use: ReceiveProviderWebhook) {
  const total = { batches: batches.length, unknown_accounts: 0, received: 0, duplicates: 0, rejected: 0, receipts: 0 };
  for (const batch of batches) {
    const outcome: ProviderWebhookOutcome = await use.execute({
      provider: batch.provider,
      account: batch.account,
      inbound: batch.inbound.map((m) => ({
        from: m.from,
        text: m.text,
        name: m.name,
        mediaUrl: m.mediaUrl,
        mediaType: m.mediaType,
        optionId: m.optionId,
        providerMessageId: m.providerMessageId,
      })),
      receipts: batch.receipts,
    });
    if (!outcome.known) total.unknown_accounts += 1;
    total.received += outcome.received;
    total.duplicates += outcome.duplicates;
    total.rejected += outcome.rejected;
    total.receipts += outcome.receipts;
  }
  return total;
}

/**
 * The channel providers' webhooks (docs/channel.md, "Inbound webhooks"): not behind an API key but
 * checked with the provider's secret; each call is turned into the same inbound and receipt commands
 * as the simulator's.
 */
export const providerWebhooksRoutes = [
  defineRoute({
    method: 'post',
    path: '/webhooks/channels/evolution',
    auth: 'public',
    operationId: 'qrProviderWebhook',
    summary: "The QR provider's webhook (Evolution API)",
    description:
      'Configure it as the instances\' webhook (`webhook.url`) with the header `Authorization: Bearer <QR_PROVIDER_WEBHOOK_SECRET>` in `webhook.headers` (or append `?token=<secret>` to the URL). `messages.upsert` of contacts become inbound messages of the instance\'s box; `messages.update` acks become delivered/read receipts. Other events are acknowledged and ignored.',
    tag: 'Provider webhooks',
    query: typed<{ token?: string }>({ type: 'object', properties: { token: { type: 'string', maxLength: 256, description: 'The secret, for providers that cannot send headers.' } } }),
    body: { schema: typed<Record<string, unknown>>({ type: 'object' }), required: false, example: { event: 'messages.upsert', instance: 'carteiro-…', data: {} } },
    response: { status: 200, description: 'What the call did.', data: outcomeSchema },
    errors: ['UNAUTHORIZED'],
    async handler({ req, query, use }) {
      const settings = use<ChannelsConfig>(ChannelsSettings);
      const secret = settings.qrProviderWebhookSecret;
      const header = req.get('authorization');
      const bearer = header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : undefined;
      if (!secret || !(sameSecret(bearer, secret) || sameSecret(query.token, secret))) throw unauthorized();
      const batch = parseEvolutionWebhook(parseJsonOrNull(await readRaw(req)));
      return handle(batch ? [batch] : [], use(ReceiveProviderWebhook));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/webhooks/channels/official',
    auth: 'public',
    operationId: 'officialWebhookVerification',
    summary: "The Cloud API's subscription check",
    description: 'Meta calls it when the webhook is configured: with `hub.mode=subscribe` and `hub.verify_token` equal to `OFFICIAL_VERIFY_TOKEN`, it answers `hub.challenge` as plain text; otherwise 403.',
    tag: 'Provider webhooks',
    query: typed<{ 'hub.mode'?: string; 'hub.verify_token'?: string; 'hub.challenge'?: string }>({
      type: 'object',
      properties: {
        'hub.mode': { type: 'string', maxLength: 64 },
        'hub.verify_token': { type: 'string', maxLength: 256 },
        'hub.challenge': { type: 'string', maxLength: 256 },
      },
    }),
    response: { status: 200, description: 'The challenge, as sent (text/plain).', data: { type: 'string' }, raw: true },
    errors: ['FORBIDDEN'],
    handler({ query, res, use }) {
      const token = use<ChannelsConfig>(ChannelsSettings).officialVerifyToken;
      if (!token || query['hub.mode'] !== 'subscribe' || !sameSecret(query['hub.verify_token'], token)) {
        throw new DomainError('FORBIDDEN', 'The verify token does not match OFFICIAL_VERIFY_TOKEN');
      }
      res.status(200).type('text/plain').send(query['hub.challenge'] ?? '');
    },
  }),
  defineRoute({
    method: 'post',
    path: '/webhooks/channels/official',
    auth: 'public',
    operationId: 'officialWebhook',
    summary: "The Cloud API's webhook",
    description:
      'Subscribe the app to the `messages` field. Every call must carry `X-Hub-Signature-256` (HMAC-SHA256 of the body with `OFFICIAL_APP_SECRET`); unsigned or mis-signed calls are 401. Contacts\' messages become inbound messages of the box whose `phone_number_id` matches; `statuses` become delivered/read receipts.',
    tag: 'Provider webhooks',
    headers: { 'x-hub-signature-256': { schema: { type: 'string', maxLength: 128 }, description: '`sha256=<hex HMAC of the body>`.' } },
    body: { schema: typed<Record<string, unknown>>({ type: 'object' }), required: false, example: { object: 'whatsapp_business_account', entry: [] } },
    response: { status: 200, description: 'What the call did.', data: outcomeSchema },
    errors: ['UNAUTHORIZED'],
    async handler({ req, headers, use }) {
      const secret = use<ChannelsConfig>(ChannelsSettings).officialAppSecret;
      const raw = await readRaw(req);
      if (!secret || !verifyCloudApiSignature(raw, headers['x-hub-signature-256'], secret)) throw unauthorized();
      return handle(parseCloudApiWebhook(parseJsonOrNull(raw)), use(ReceiveProviderWebhook));
    },
  }),
];
