import { createHmac, timingSafeEqual } from 'node:crypto';
import type { MediaType, ReceiptStatus } from '@carteiro/core';
import { asRecord, asString, unixSeconds, type ProviderInbound, type ProviderReceipt, type ProviderWebhookBatch } from '../inbound/provider-webhook.js';

const STATUSES: Record<string, ReceiptStatus | null> = { sent: null, delivered: 'delivered', read: 'read', failed: 'failed' };
const MEDIA: readonly MediaType[] = ['image', 'video', 'audio', 'document'];

/**
 * Whether `signature` (the `X-Hub-Signature-256` header, `sha256=<hex>`) is the HMAC-SHA256 of the
 * raw body with the app secret, compared in constant time.
 */
export function verifyCloudApiSignature(rawBody: Buffer, signature: string | undefined, appSecret: string): boolean {
  if (!signature || !signature.startsWith('sha256=')) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  const given = Buffer.from(signature.slice('sha256='.length), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The `X-Hub-Signature-256` header of a body (what the fake server and tests send). */
export function cloudApiSignature(rawBody: Buffer | string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}

/** A Cloud API message object (`value.messages[i]`) as an inbound message. */
function inboundOf(message: Record<string, unknown>, names: Map<string, string>): ProviderInbound | null {
  const fromDigits = asString(message.from)?.replace(/\D/g, '');
  const id = asString(message.id);
  if (!fromDigits || !id) return null;
  const type = asString(message.type) ?? '';
  let text: string | null = null;
  let mediaUrl: string | null = null;
  let mediaType: MediaType | null = null;
  let optionId: string | null = null;
  if (type === 'text') text = asString(asRecord(message.text).body);
  if ((MEDIA as readonly string[]).includes(type)) {
    const media = asRecord(message[type]);
    mediaType = type as MediaType;
    // The Cloud API gives a media id (downloaded through GET /{media_id}); kept as a `media:` reference.
    const mediaId = asString(media.id);
    mediaUrl = asString(media.link) ?? (mediaId ? `media:${mediaId}` : null);
    text = asString(media.caption);
  }
  if (type === 'interactive') {
    const interactive = asRecord(message.interactive);
    const reply = asRecord(interactive.list_reply ?? interactive.button_reply);
    optionId = asString(reply.id);
    text = asString(reply.title);
  }
  if (type === 'button') {
    const button = asRecord(message.button);
    optionId = asString(button.payload);
    text = asString(button.text);
  }
  if (text === null && mediaUrl === null && optionId === null) return null;
  return { from: `+${fromDigits}`, name: names.get(fromDigits) ?? null, text, mediaUrl, mediaType: mediaUrl ? mediaType : null, optionId, providerMessageId: id };
}

function receiptOf(status: Record<string, unknown>): ProviderReceipt | null {
  const id = asString(status.id);
  const mapped = STATUSES[asString(status.status) ?? ''];
  if (!id || !mapped) return null;
  return { providerMessageId: id, status: mapped, at: unixSeconds(status.timestamp) };
}

/**
 * A Cloud API webhook notification (`{ object: 'whatsapp_business_account', entry: [{ changes:
 * [{ field: 'messages', value }] }] }`): one batch per `phone_number_id` of its changes, with the
 * contacts' messages and the statuses of the box's messages.
 */
export function parseCloudApiWebhook(body: unknown): ProviderWebhookBatch[] {
  const batches = new Map<string, ProviderWebhookBatch>();
  const entries = asRecord(body).entry;
  for (const entry of Array.isArray(entries) ? entries : []) {
    const changes = asRecord(entry).changes;
    for (const change of Array.isArray(changes) ? changes : []) {
      const { field, value } = asRecord(change);
      if (field !== 'messages') continue;
      const v = asRecord(value);
      const account = asString(asRecord(v.metadata).phone_number_id);
      if (!account) continue;
      const batch = batches.get(account) ?? { provider: 'official' as const, account, inbound: [], receipts: [] };
      batches.set(account, batch);
      const names = new Map<string, string>();
      for (const contact of Array.isArray(v.contacts) ? v.contacts.map(asRecord) : []) {
        const waId = asString(contact.wa_id)?.replace(/\D/g, '');
        const name = asString(asRecord(contact.profile).name);
        if (waId && name) names.set(waId, name);
      }
      for (const message of Array.isArray(v.messages) ? v.messages.map(asRecord) : []) {
        const inbound = inboundOf(message, names);
        if (inbound) batch.inbound.push(inbound);
      }
      for (const status of Array.isArray(v.statuses) ? v.statuses.map(asRecord) : []) {
        const receipt = receiptOf(status);
        if (receipt) batch.receipts.push(receipt);
      }
    }
  }
  return [...batches.values()];
}
