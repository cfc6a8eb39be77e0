import { DomainError } from '../../shared/errors.js';
import type { CreateEnvelopeRequest, CreatedEnvelope, EnvelopeStatus, SigningProvider, SigningProviders, SigningWebhookEvent } from '../signing-provider.js';

/** An envelope the fake holds. */
export interface FakeEnvelope {
  ref: string;
  request: CreateEnvelopeRequest;
  cancelled: boolean;
  status: EnvelopeStatus;
}

/**
 * A scriptable signing provider for unit tests: envelopes in memory, idempotent by external id,
 * failures on demand, statuses a test sets for the reconcile. Webhooks carry a JSON list of
 * events and the header `x-fake-secret`.
 */
export class FakeSigningProvider implements SigningProvider {
  readonly envelopes = new Map<string, FakeEnvelope>();
  failCreate = false;
  failCancel = false;
  constructor(
    readonly name = 'fake',
    private readonly secret = 'fake-secret',
  ) {}

  async createEnvelope(request: CreateEnvelopeRequest): Promise<CreatedEnvelope> {
    if (this.failCreate) throw new DomainError('PROVIDER_ERROR', 'fake provider is down');
    const existing = [...this.envelopes.values()].find((e) => e.request.externalId === request.externalId && !e.cancelled);
    const envelope = existing ?? {
      ref: `env-${this.envelopes.size + 1}`,
      request,
      cancelled: false,
      status: { status: 'pending', signers: request.signers.map((s) => ({ id: s.id, ref: `sig-${s.id}`, status: 'pending', at: null, reason: null })) },
    };
    this.envelopes.set(envelope.ref, envelope);
    return { ref: envelope.ref, signers: request.signers.map((s) => ({ id: s.id, ref: `sig-${s.id}`, signUrl: `https://sign.example/${envelope.ref}/${s.id}` })) };
  }

  async cancelEnvelope(ref: string): Promise<void> {
    if (this.failCancel) throw new DomainError('PROVIDER_ERROR', 'fake provider is down');
    const envelope = this.envelopes.get(ref);
    if (envelope) envelope.cancelled = true;
  }

  async getStatus(ref: string): Promise<EnvelopeStatus> {
    const envelope = this.envelopes.get(ref);
    if (!envelope) throw new DomainError('PROVIDER_ERROR', 'unknown envelope');
    return structuredClone(envelope.status);
  }

  verifyWebhook(headers: Readonly<Record<string, string | string[] | undefined>>, body: unknown): SigningWebhookEvent[] {
    if (headers['x-fake-secret'] !== this.secret) throw new DomainError('UNAUTHORIZED', 'Invalid webhook secret');
    return body as SigningWebhookEvent[];
  }

  /** Envelopes not cancelled. */
  live(): FakeEnvelope[] {
    return [...this.envelopes.values()].filter((e) => !e.cancelled);
  }
}

/** One provider for every mode. */
export function fakeSigningProviders(provider: SigningProvider): SigningProviders {
  return { forMode: () => provider, byName: (name) => (name === provider.name ? provider : null) };
}
