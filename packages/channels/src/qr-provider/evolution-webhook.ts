import type { MediaType, ReceiptStatus } from '@carteiro/core';
import { asRecord, asString, unixSeconds, type ProviderInbound, type ProviderReceipt, type ProviderWebhookBatch } from '../inbound/provider-webhook.js';

/** Baileys' numeric ack statuses and Evolution's names for them. */
const ACK_STATUSES: Record<string, ReceiptStatus | null> = {
  '2': null, // SERVER_ACK: sent, which we knew
  '3': 'delivered',
  '4': 'read',
  '5': 'read', // PLAYED (voice notes)
  SERVER_ACK: null,
  DELIVERY_ACK: 'delivered',
  READ: 'read',
  PLAYED: 'read',
  ERROR: 'failed',
};

const MEDIA: Record<string, MediaType> = {
  imageMessage: 'image',
  videoMessage: 'video',
  audioMessage: 'audio',
  documentMessage: 'document',
  documentWithCaptionMessage: 'document',
};

/** A contact's JID (`5511987654321@s.whatsapp.net`) as digits; groups, broadcasts and newsletters are not contacts. */
function contactOfJid(jid: unknown): string | null {
  if (typeof jid !== 'string' || !jid.endsWith('@s.whatsapp.net')) return null;
  const digits = jid.split('@')[0]!.split(':')[0]!.replace(/\D/g, '');
  return digits ? `+${digits}` : null;
}

/** One `messages.upsert` item: a message the contact sent (the box's own, `fromMe`, are skipped). */
function inboundOf(item: Record<string, unknown>): ProviderInbound | null {
  const key = asRecord(item.key);
  if (key.fromMe === true) return null;
  const from = contactOfJid(key.remoteJid);
  const id = asString(key.id);
  if (!from || !id) return null;
  const message = asRecord(item.message);
  let text = asString(message.conversation) ?? asString(asRecord(message.extendedTextMessage).text);
  let mediaUrl: string | null = null;
  let mediaType: MediaType | null = null;
  let optionId: string | null = null;
  for (const [field, type] of Object.entries(MEDIA)) {
    const media = asRecord(field === 'documentWithCaptionMessage' ? asRecord(asRecord(message[field]).message).documentMessage : message[field]);
    if (Object.keys(media).length === 0) continue;
    mediaType = type;
    // With S3 storage Evolution adds a public `mediaUrl`; otherwise the WhatsApp CDN address.
    mediaUrl = asString(message.mediaUrl) ?? asString(item.mediaUrl) ?? asString(media.url);
    text = text ?? asString(media.caption);
    break;
  }
  const list = asRecord(message.listResponseMessage);
  if (Object.keys(list).length > 0) {
    optionId = asString(asRecord(list.singleSelectReply).selectedRowId);
    text = text ?? asString(list.title);
  }
  const buttons = asRecord(message.buttonsResponseMessage);
  if (Object.keys(buttons).length > 0) {
    optionId = asString(buttons.selectedButtonId);
    text = text ?? asString(buttons.selectedDisplayText);
  }
  const template = asRecord(message.templateButtonReplyMessage);
  if (Object.keys(template).length > 0) {
    optionId = asString(template.selectedId);
    text = text ?? asString(template.selectedDisplayText);
  }
  if (text === null && mediaUrl === null && optionId === null) return null; // reactions, stickers, protocol messages
  return { from, name: asString(item.pushName), text, mediaUrl, mediaType: mediaUrl ? mediaType : null, optionId, providerMessageId: id };
}

/** One `messages.update` item: an ack of a message the box sent. */
function receiptOf(item: Record<string, unknown>): ProviderReceipt | null {
  const key = asRecord(item.key);
  const update = asRecord(item.update);
  if ((item.fromMe ?? key.fromMe) === false) return null; // acks of the contact's own messages
  const id = asString(item.keyId) ?? asString(key.id) ?? asString(item.messageId);
  const status = ACK_STATUSES[asString(item.status) ?? asString(update.status) ?? ''];
  if (!id || !status) return null;
  return { providerMessageId: id, status, at: unixSeconds(item.datetime) ?? unixSeconds(item.messageTimestamp) };
}

const list = (data: unknown): Record<string, unknown>[] => (Array.isArray(data) ? data.map(asRecord) : [asRecord(data)]);

/**
 * An Evolution API v2 webhook call (`{ event, instance, data }`; the event in either spelling,
 * `messages.upsert` or `MESSAGES_UPSERT`): new messages of contacts become inbound messages,
 * message updates become receipts; other events carry nothing for us (null).
 */
export function parseEvolutionWebhook(body: unknown): ProviderWebhookBatch | null {
  const root = asRecord(body);
  const account = asString(root.instance) ?? asString(asRecord(root.data).instance);
  const event = (asString(root.event) ?? '').toLowerCase().replace(/_/g, '.');
  if (!account) return null;
  if (event === 'messages.upsert') {
    const data = asRecord(root.data);
    const items = Array.isArray(data.messages) ? data.messages.map(asRecord) : list(root.data);
    return { provider: 'qr', account, inbound: items.map(inboundOf).filter((m): m is ProviderInbound => m !== null), receipts: [] };
  }
  if (event === 'messages.update') {
    return { provider: 'qr', account, inbound: [], receipts: list(root.data).map(receiptOf).filter((r): r is ProviderReceipt => r !== null) };
  }
  return null;
}
