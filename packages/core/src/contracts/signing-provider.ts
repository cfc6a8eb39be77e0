import type { KeyMode } from '../api-keys/index.js';

/** One signer of an envelope: `id` is ours and comes back with the provider's refs and events. */
export interface EnvelopeSigner {
  id: string;
  name: string;
  /** E.164. */
  phone: string;
}

export interface CreateEnvelopeRequest {
  /** Our contract id: a provider creates one envelope per external id (a retried call answers the same envelope). */
  externalId: string;
  title: string;
  pdf: Uint8Array;
  signers: EnvelopeSigner[];
  expiresAt: Date;
}

/** The envelope: its ref and each signer's ref and signing URL (URLs are delivered by us and never stored). */
export interface CreatedEnvelope {
  ref: string;
  signers: { id: string; ref: string; signUrl: string }[];
}

/** What the provider says about one signer. */
export interface ProviderSignerStatus {
  /** Our signer id when the provider echoes it, else null (matched by `ref`). */
  id: string | null;
  ref: string;
  status: 'pending' | 'viewed' | 'signed' | 'refused';
  at: Date | null;
  reason: string | null;
}

/** The envelope as the provider sees it (the reconcile compares it with ours). */
export interface EnvelopeStatus {
  status: 'pending' | 'signed' | 'refused' | 'cancelled' | 'expired';
  signers: ProviderSignerStatus[];
}

/** One fact of a provider webhook, after its secret was checked. */
export interface SigningWebhookEvent {
  /** Unique per fact: repeats of the same delivery carry the same id (deduplicated). */
  eventId: string;
  envelopeRef: string;
  signer: ProviderSignerStatus;
}

/**
 * A signing provider (business.md §4): the simulator, ZapSign. Calls that fail throw
 * `DomainError('PROVIDER_ERROR')`; `createEnvelope` is idempotent by `externalId`.
 */
export interface SigningProvider {
  readonly name: string;
  createEnvelope(request: CreateEnvelopeRequest): Promise<CreatedEnvelope>;
  /** Cancels (deletes) the envelope so that no link signs anymore; an unknown or cancelled one is fine. */
  cancelEnvelope(ref: string): Promise<void>;
  getStatus(ref: string): Promise<EnvelopeStatus>;
  /**
   * Checks a webhook delivery's secret and reads its facts: throws `DomainError('UNAUTHORIZED')`
   * when the secret is wrong; `[]` for events we do not act on.
   */
  verifyWebhook(headers: Readonly<Record<string, string | string[] | undefined>>, body: unknown): SigningWebhookEvent[];
}

/** The providers of a process: test keys always reach the simulator (business.md §0). */
export interface SigningProviders {
  /** The provider new envelopes go to for a key of this mode. */
  forMode(mode: KeyMode): SigningProvider;
  /** A provider by name (an envelope stays with the provider that made it); null when unknown. */
  byName(name: string): SigningProvider | null;
}
export const SigningProviders = Symbol.for('carteiro.SigningProviders');
