import type { Clock } from '../shared/clock.js';
import { systemActor, type EventActor } from '../shared/domain-event.js';
import { DomainError, NotFoundError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/id-generator.js';
import { handleCommand } from '../shared/apply-command.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import type { Contract, SignerOutcome } from './contract.js';
import type { ContractRepositories } from './contract-repositories.js';
import { storedContract } from './contracts.js';
import type { ProviderSignerStatus, SigningProviders, SigningWebhookEvent } from './signing-provider.js';

/** The name of the simulator provider (test keys, and the default). */
export const SIMULATOR_PROVIDER = 'simulator';

const providerActor = (provider: string): EventActor => ({ user_id: null, source: `signing:${provider}` });

function signerOf(contract: Contract, reported: ProviderSignerStatus) {
  return contract.signers.find((s) => (reported.id !== null && s.id === reported.id) || (s.providerRef !== null && s.providerRef === reported.ref)) ?? null;
}

/** Applies one provider fact to a locked contract: signed / refused / viewed (pending changes nothing). */
async function applySignerStatus(
  repos: Repositories<ContractRepositories>,
  contract: Contract,
  reported: ProviderSignerStatus,
  actor: EventActor,
  ids: IdGenerator,
  now: Date,
): Promise<boolean> {
  if (reported.status === 'pending') return false;
  const signer = signerOf(contract, reported);
  if (!signer) return false;
  const result = await handleCommand(repos, storedContract(async () => contract, actor, ids), {
    type: 'signer_outcome',
    at: reported.at ?? now,
    signerId: signer.id,
    outcome: reported.status as SignerOutcome,
    reason: reported.reason,
  });
  return (result?.events.length ?? 0) > 0;
}

/** What one webhook delivery did: facts read, facts that changed a contract, repeats ignored. */
export interface SigningWebhookOutcome {
  received: number;
  applied: number;
  duplicates: number;
}

/**
 * A provider's webhook (`POST /webhooks/signing/:provider`): its secret is checked by the provider
 * adapter; each fact is recorded once (a redelivery is a duplicate and changes nothing) in the
 * transaction that applies it, so that `contract.signed` / `contract.refused` are emitted once.
 */
export class HandleSigningWebhook {
  constructor(
    private readonly uow: UnitOfWork<ContractRepositories>,
    private readonly providers: SigningProviders,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(providerName: string, headers: Readonly<Record<string, string | string[] | undefined>>, body: unknown): Promise<SigningWebhookOutcome> {
    const provider = this.providers.byName(providerName);
    if (!provider) throw new NotFoundError('Signing provider');
    return this.apply(providerName, provider.verifyWebhook(headers, body));
  }

  /** Applies facts already verified (the simulator's own signatures come through here). */
  async apply(providerName: string, events: readonly SigningWebhookEvent[]): Promise<SigningWebhookOutcome> {
    const outcome = { received: events.length, applied: 0, duplicates: 0 };
    for (const event of events) {
      await this.uow.transaction(async (repos) => {
        const now = this.clock.now();
        if (!(await repos.signingEvents.recordOnce(providerName, event.eventId, now))) {
          outcome.duplicates += 1;
          return;
        }
        const contract = await repos.contracts.findByProviderRefForUpdate(providerName, event.envelopeRef);
        if (contract && (await applySignerStatus(repos, contract, event.signer, providerActor(providerName), this.ids, now))) outcome.applied += 1;
      });
    }
    return outcome;
  }
}

/**
 * `POST /admin/v1/simulator/contracts/:id/sign`: a signer of a contract sent through the
 * simulator signs or refuses, delivered as the simulator's webhook would be (deduplicated by
 * contract, signer and outcome).
 */
export class SimulateSignature {
  constructor(
    private readonly repos: Repositories<ContractRepositories>,
    private readonly webhooks: HandleSigningWebhook,
    private readonly clock: Clock,
  ) {}

  async execute(contractId: string, input: { signerId: string; outcome: 'signed' | 'refused'; reason?: string | null }): Promise<SigningWebhookOutcome> {
    const contract = await this.repos.contracts.findAnyById(contractId);
    if (!contract) throw new NotFoundError('Contract');
    if (contract.provider !== SIMULATOR_PROVIDER || !contract.providerRef || contract.status === 'draft' || contract.status === 'sending') {
      throw new DomainError('CONFLICT', 'Only a contract sent through the signing simulator can be signed here', { status: contract.status, provider: contract.provider });
    }
    const signer = contract.signers.find((s) => s.id === input.signerId);
    if (!signer) throw new NotFoundError('Signer', { signer_id: input.signerId });
    return this.webhooks.apply(SIMULATOR_PROVIDER, [
      {
        eventId: `${contract.id}:${signer.id}:${input.outcome}`,
        envelopeRef: contract.providerRef,
        signer: { id: signer.id, ref: signer.providerRef ?? signer.id, status: input.outcome, at: this.clock.now(), reason: input.reason ?? null },
      },
    ]);
  }
}

/**
 * The periodic reconcile (every 10 minutes): asks the provider about each contract waiting for
 * signatures and applies what a missed webhook would have said; expires those past `expires_at`.
 */
export class ReconcileContracts {
  constructor(
    private readonly uow: UnitOfWork<ContractRepositories>,
    private readonly providers: SigningProviders,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(limit = 200): Promise<{ checked: number; changed: number }> {
    const waiting = await this.uow.transaction((repos) => repos.contracts.awaitingSignature(limit));
    let changed = 0;
    for (const found of waiting) {
      const provider = found.provider ? this.providers.byName(found.provider) : null;
      if (!provider || !found.providerRef) continue;
      const status = await provider.getStatus(found.providerRef).catch(() => null);
      await this.uow.transaction(async (repos) => {
        const contract = await repos.contracts.findByIdForUpdate(found.companyId, found.id);
        if (!contract || contract.status !== 'sent') return;
        const now = this.clock.now();
        let touched = false;
        for (const reported of status?.signers ?? []) {
          const current = (await repos.contracts.findByIdForUpdate(found.companyId, found.id))!;
          if (current.status !== 'sent') break;
          if (await applySignerStatus(repos, current, reported, systemActor, this.ids, now)) touched = true;
        }
        const current = (await repos.contracts.findByIdForUpdate(found.companyId, found.id))!;
        if (current.status === 'sent' && ((current.expiresAt && current.expiresAt <= now) || status?.status === 'expired')) {
          await handleCommand(repos, storedContract(async () => current, systemActor, this.ids), { type: 'expire', at: now });
          touched = true;
        }
        if (!touched) await repos.contracts.update({ ...current, updatedAt: now });
        else changed += 1;
      });
    }
    return { checked: waiting.length, changed };
  }
}

/** How long a send may stay `sending` before the sweep compensates it (business.md §4). */
export const STUCK_SEND_MS = 5 * 60_000;

/**
 * The sweep of sends that died half-way (the process stopped between its steps): their envelope
 * is cancelled and they return to draft.
 */
export class SweepStuckContractSends {
  constructor(
    private readonly uow: UnitOfWork<ContractRepositories>,
    private readonly providers: SigningProviders,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(limit = 100): Promise<number> {
    const now = this.clock.now();
    const stuck = await this.uow.transaction((repos) => repos.contracts.stuckSending(new Date(now.getTime() - STUCK_SEND_MS), limit));
    let returned = 0;
    for (const contract of stuck) {
      if (contract.provider && contract.providerRef) {
        const provider = this.providers.byName(contract.provider);
        const cancelled = await provider
          ?.cancelEnvelope(contract.providerRef)
          .then(() => true)
          .catch(() => false);
        if (!cancelled) continue;
      }
      const result = await this.uow.transaction((repos) =>
        handleCommand(repos, storedContract((r) => r.contracts.findByIdForUpdate(contract.companyId, contract.id), systemActor, this.ids), { type: 'abort_send', at: this.clock.now() }),
      );
      if (result?.events.length) returned += 1;
    }
    return returned;
  }
}
