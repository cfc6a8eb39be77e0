import { DomainError, SIMULATOR_PROVIDER, type Clock, type CreateEnvelopeRequest, type CreatedEnvelope, type EnvelopeStatus, type SigningProvider, type SigningWebhookEvent } from '@carteiro/core';

interface SimulatedEnvelope {
  ref: string;
  externalId: string;
  signers: { id: string; ref: string }[];
  cancelled: boolean;
  expiresAt: Date;
}

/**
 * The signing simulator (the default provider, and always the one of test keys). Envelopes are
 * named after the contract (`sim_<contract id>`, so creating one again answers the same) and their
 * links point at a page that does not exist: the operator signs with
 * `POST /admin/v1/simulator/contracts/:id/sign`, which goes through the same deduplicated path as a
 * provider webhook. State lives in the contract row; the cancelled envelopes of this process are
 * remembered for tests. It has no webhooks of its own.
 */
export class SimulatorSigningProvider implements SigningProvider {
  readonly name = SIMULATOR_PROVIDER;
  private readonly envelopes = new Map<string, SimulatedEnvelope>();

  constructor(
    private readonly clock: Clock,
    private readonly signBaseUrl = 'https://sign.simulator.invalid',
  ) {}

  async createEnvelope(request: CreateEnvelopeRequest): Promise<CreatedEnvelope> {
    const ref = `sim_${request.externalId}`;
    const envelope: SimulatedEnvelope = {
      ref,
      externalId: request.externalId,
      signers: request.signers.map((s) => ({ id: s.id, ref: `sim_${s.id}` })),
      cancelled: false,
      expiresAt: request.expiresAt,
    };
    this.envelopes.set(ref, envelope);
    return { ref, signers: envelope.signers.map((s) => ({ id: s.id, ref: s.ref, signUrl: `${this.signBaseUrl}/${ref}/${s.ref}` })) };
  }

  async cancelEnvelope(ref: string): Promise<void> {
    const envelope = this.envelopes.get(ref);
    if (envelope) envelope.cancelled = true;
  }

  async getStatus(ref: string): Promise<EnvelopeStatus> {
    const envelope = this.envelopes.get(ref);
    // Signatures reach the contract directly: the simulator never knows more than the contract does.
    if (!envelope) return { status: 'pending', signers: [] };
    if (envelope.cancelled) return { status: 'cancelled', signers: [] };
    return { status: envelope.expiresAt <= this.clock.now() ? 'expired' : 'pending', signers: [] };
  }

  verifyWebhook(): SigningWebhookEvent[] {
    throw new DomainError('NOT_FOUND', 'The signing simulator has no webhooks: use POST /admin/v1/simulator/contracts/:id/sign');
  }

  /** Envelopes this process created and did not cancel (for tests). */
  liveEnvelopes(): string[] {
    return [...this.envelopes.values()].filter((e) => !e.cancelled).map((e) => e.ref);
  }
}
