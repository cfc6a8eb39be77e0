import type { KeyMode } from '../api-keys/index.js';
import type { CampaignRepositories, IdempotencyInput } from '../campaigns/index.js';
import { IdempotentRequests } from '../campaigns/index.js';
import type { ChannelGateway, ChannelRepositories, OutboundContent, SendResult } from '../channel/index.js';
import type { Company, CompanyRepositories } from '../companies/index.js';
import type { ContactRepositories } from '../contacts/index.js';
import { assertWithinQuota, quotaWindow } from '../quotas/index.js';
import { resolveSenderPool, type RoutingRepositories, type SenderSetor } from '../routing/index.js';
import type { SetorRepositories } from '../setores/index.js';
import type { TeamRepositories } from '../teams/index.js';
import { handleCommand } from '../shared/apply-command.js';
import type { Clock } from '../shared/clock.js';
import type { EventActor } from '../shared/domain-event.js';
import { DomainError, NotFoundError, ValidationError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/id-generator.js';
import { formatBrl } from '../shared/money.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import { zonedDateBr } from '../shared/zoned-time.js';
import type { Contract, ContractCommand, ContractSigner } from './contract.js';
import type { ContractRenderer } from './contract-renderer.js';
import type { ContractRepositories } from './contract-repositories.js';
import { fillVariables } from './contract-template.js';
import { storedContract } from './contracts.js';
import type { CreatedEnvelope, SigningProvider, SigningProviders } from './signing-provider.js';

type SendRepos = ContractRepositories &
  CompanyRepositories &
  ContactRepositories &
  SetorRepositories &
  TeamRepositories &
  ChannelRepositories &
  RoutingRepositories &
  CampaignRepositories;

/** The text sent with each signer's link when the request gives none. */
export const DEFAULT_SEND_MESSAGE = 'Olá, {{cliente_nome}}! Segue o contrato "{{titulo}}" para a sua assinatura: {{link}}';

/** `POST /v1/contracts/:id/send`. */
export interface SendContractInput {
  companyId: string;
  contractId: string;
  /** The `x-actor-user-id` header: `contract.sent`'s `actor.user_id`. */
  actorUserId: string;
  mode: KeyMode;
  setorId?: string | null;
  /** With `{{link}}` (each signer's signing link); `{{cliente_nome}}` is the signer's name. */
  message?: string | null;
}

/** The answer of a send (business.md §4); never the signing links. */
export interface SentContract {
  id: string;
  status: 'sent';
  sentAt: string;
  expiresAt: string;
  signers: { id: string; name: string; phone: string; status: string }[];
  delivery: { setorId: string; messageIds: string[] };
  durationMs: number;
}

function providerError(stage: 'signing' | 'channel', message: string, details: Record<string, unknown> = {}) {
  return new DomainError('PROVIDER_ERROR', message, { stage, ...details });
}

/** The variables every contract fills when it is rendered. */
export function automaticVariables(contract: Contract, company: Pick<Company, 'name' | 'timezone'>, clientName: string, now: Date): Record<string, string> {
  return {
    cliente_nome: clientName,
    empresa_nome: company.name,
    titulo: contract.title,
    valor: contract.value === null ? '' : formatBrl(contract.value),
    data: zonedDateBr(now, company.timezone),
  };
}

const fileName = (title: string) =>
  `${
    title
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^a-zA-Z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .toLowerCase()
      .slice(0, 60) || 'contrato'
  }.pdf`;

/**
 * Sends a draft for signature as a compensated saga (business.md §4, §9.5):
 *
 * 1. draft → sending, committed (with the plan quota checked under the company's row lock), so
 *    that a second send of the same contract is refused while this one runs;
 * 2. the PDF is rendered;
 * 3. the envelope is created at the signing provider (idempotent by contract id) and recorded;
 * 4. each signer gets the PDF (inline document) and then their link over the company's channel;
 * 5. sending → sent with `contract.sent`, in one transaction.
 *
 * A failure after step 1 cancels the envelope and returns the contract to draft; if even that
 * fails (the provider is down), the contract stays `sending` and the sweep finishes the
 * compensation after 5 minutes. Signing links are delivered and never stored or answered.
 */
export class SendContract {
  constructor(
    private readonly uow: UnitOfWork<SendRepos>,
    private readonly gateway: ChannelGateway,
    private readonly renderer: ContractRenderer,
    private readonly providers: SigningProviders,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  /** Runs the send, or with an `Idempotency-Key` answers a completed earlier send's result again. */
  async execute(input: SendContractInput, idempotency?: IdempotencyInput): Promise<{ sent: SentContract; replay: boolean }> {
    if (!idempotency) return { sent: await this.send(input), replay: false };
    const result = await new IdempotentRequests(this.uow, this.clock).runAcross(input.companyId, idempotency, async () => ({ status: 200, body: await this.send(input) }));
    return { sent: result.body as SentContract, replay: result.replay };
  }

  private async send(input: SendContractInput): Promise<SentContract> {
    const started = this.clock.now();
    if (input.message != null && !input.message.includes('{{link}}')) {
      throw new ValidationError('message must contain {{link}}', { field: 'message' });
    }
    const actor: EventActor = { user_id: input.actorUserId, source: 'api' };
    const stored = storedContract((r) => r.contracts.findByIdForUpdate(input.companyId, input.contractId), actor, this.ids);

    // 1. draft → sending, committed.
    const prepared = await this.uow.transaction(async (repos) => {
      const company = await repos.companies.findByIdForUpdate(input.companyId);
      if (!company) throw new NotFoundError('Company');
      const contract = await repos.contracts.findByIdForUpdate(input.companyId, input.contractId);
      if (!contract) throw new NotFoundError('Contract');
      const client = await repos.contacts.findById(input.companyId, contract.clientId);
      if (!client) throw new DomainError('UNPROCESSABLE', 'The contract has no client phone to send to', { reason: 'no_phone' });
      if (contract.status === 'draft') {
        const window = quotaWindow('contracts_per_month', started, company.timezone)!;
        const used = input.mode === 'test' ? 0 : await repos.contracts.countSentSince(company.id, window.from);
        assertWithinQuota({ company, quota: 'contracts_per_month', used, now: started, testMode: input.mode === 'test' });
      }
      const box = await this.box(repos, company, input.setorId ?? null);
      const result = await handleCommand(repos, { ...stored, load: async () => contract }, { type: 'start_send', at: started });
      return { company, box, contract: result!.state!, clientName: client.name ?? client.phone };
    });

    const { company, box, clientName } = prepared;
    let contract = prepared.contract;
    const provider = this.providers.forMode(input.mode);
    let envelope: CreatedEnvelope | null = null;
    try {
      // 2. the PDF.
      const values = { ...contract.variables, ...automaticVariables(contract, company, clientName, started) };
      const document = await this.renderer.render({ title: contract.title, companyName: company.name, body: fillVariables(contract.content, values), signers: contract.signers.map((s) => s.name) });
      const expiresAt = new Date(started.getTime() + contract.expiresInDays * 86_400_000);

      // 3. the envelope, recorded so that a crash from here on can still be compensated.
      try {
        envelope = await provider.createEnvelope({
          externalId: contract.id,
          title: contract.title,
          pdf: document.bytes,
          signers: contract.signers.map((s) => ({ id: s.id, name: s.name, phone: s.phone })),
          expiresAt,
        });
      } catch (error) {
        throw error instanceof DomainError && error.code === 'PROVIDER_ERROR'
          ? providerError('signing', error.message, error.details)
          : providerError('signing', error instanceof Error ? error.message : String(error));
      }
      const signerRefs = Object.fromEntries(envelope.signers.map((s) => [s.id, s.ref]));
      contract = await this.step(stored, { type: 'record_envelope', at: this.clock.now(), provider: provider.name, providerRef: envelope.ref, signerRefs });

      // 4. the PDF, then the link, to each signer.
      const messageIds: string[] = [];
      for (const signer of contract.signers) {
        const link = envelope.signers.find((s) => s.id === signer.id)?.signUrl;
        if (!link) throw providerError('signing', 'The provider returned no signing link for a signer', { signer_id: signer.id });
        const text = fillVariables(input.message ?? DEFAULT_SEND_MESSAGE, { ...values, cliente_nome: signer.name, link });
        const pdf: OutboundContent = { kind: 'document', filename: fileName(contract.title), mimeType: 'application/pdf', data: document.bytes, caption: contract.title };
        for (const content of [pdf, { kind: 'text', text } satisfies OutboundContent]) {
          messageIds.push(await this.deliver(box, input.mode, signer, content));
        }
      }

      // 5. sent, with contract.sent.
      contract = await this.step(stored, {
        type: 'complete_send',
        at: this.clock.now(),
        document: { pages: document.pages, sha256: document.sha256 },
        delivery: { setorId: box.setor.id, messageIds, mode: input.mode },
        expiresAt,
      });
    } catch (error) {
      await this.compensate(stored, provider, envelope?.ref ?? null);
      throw error;
    }
    return {
      id: contract.id,
      status: 'sent',
      sentAt: contract.sentAt!.toISOString(),
      expiresAt: contract.expiresAt!.toISOString(),
      signers: contract.signers.map((s) => ({ id: s.id, name: s.name, phone: s.phone, status: s.status })),
      delivery: { setorId: contract.delivery!.setorId, messageIds: contract.delivery!.messageIds },
      durationMs: this.clock.now().getTime() - started.getTime(),
    };
  }

  private async box(repos: Repositories<SendRepos>, company: Company, setorId: string | null): Promise<SenderSetor> {
    const pool = await resolveSenderPool(repos, company, setorId ? { setorId } : {});
    return pool.boxes[0]!;
  }

  private async step(stored: ReturnType<typeof storedContract>, command: ContractCommand): Promise<Contract> {
    const result = await this.uow.transaction((repos) => handleCommand(repos, stored, command));
    if (!result?.state) throw new NotFoundError('Contract');
    return result.state;
  }

  /** One channel message; a refused recipient is 422, a provider failure 502 `stage: channel`. */
  private async deliver(box: SenderSetor, mode: KeyMode, signer: ContractSigner, content: OutboundContent): Promise<string> {
    const clientMessageId = this.ids.newId();
    let result: SendResult;
    try {
      result = await this.gateway.send({ setor: box.setor, instance: box.instance, mode, to: signer.phone, content, clientMessageId });
    } catch (error) {
      throw providerError('channel', error instanceof Error ? error.message : String(error), { signer_id: signer.id });
    }
    if (result.ok) return clientMessageId;
    if (result.providerFailure) throw providerError('channel', result.error, { signer_id: signer.id, error_code: result.code });
    throw new DomainError('UNPROCESSABLE', `The contract could not be delivered to a signer: ${result.error}`, {
      reason: 'recipient_failed',
      signer_id: signer.id,
      error_code: result.code,
    });
  }

  /** Cancels the envelope and returns the draft; left `sending` for the sweep when the provider cannot cancel now. */
  private async compensate(stored: ReturnType<typeof storedContract>, provider: SigningProvider, ref: string | null): Promise<void> {
    try {
      if (ref) await provider.cancelEnvelope(ref);
      await this.uow.transaction((repos) => handleCommand(repos, stored, { type: 'abort_send', at: this.clock.now() }));
    } catch {
      // The sweep (SweepStuckContractSends) retries the compensation of contracts left sending.
    }
  }
}
