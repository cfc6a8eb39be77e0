import type { MediaType, ReceiptStatus } from '@carteiro/core';

/** One message a contact sent, as a provider's webhook reports it (the box is resolved from `account`). */
export interface ProviderInbound {
  /** The contact's number (digits with or without `+`). */
  from: string;
  /** The contact's push name / profile name, when the provider gives one. */
  name: string | null;
  text: string | null;
  mediaUrl: string | null;
  mediaType: MediaType | null;
  /** The id of the chosen option of an interactive list or button (`csat_5`), when it is one. */
  optionId: string | null;
  providerMessageId: string;
}

/** A delivery or read receipt of a message the box sent. */
export interface ProviderReceipt {
  providerMessageId: string;
  status: ReceiptStatus;
  at: Date | null;
}

/**
 * What one provider webhook call carries for one account of the provider (an Evolution instance,
 * a Cloud API phone number id): inbound messages and receipts, in the order the provider sent them.
 */
export interface ProviderWebhookBatch {
  provider: 'qr' | 'official';
  /** The Evolution instance name, or the Cloud API `phone_number_id`. */
  account: string;
  inbound: ProviderInbound[];
  receipts: ProviderReceipt[];
}

export const asRecord = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

export const asString = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : null);

/** A Unix timestamp in seconds (number or digits), as both providers send them. */
export function unixSeconds(value: unknown): Date | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isFinite(n) || n <= 0) return null;
  return new Date(n * 1000);
}
