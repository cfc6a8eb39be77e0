import type { CompanyRepositories } from '../companies/index.js';
import type { ContactRepositories } from '../contacts/index.js';
import { clientsById, type ClientRef, type CrmRepositories } from '../crm/index.js';
import { normalizePhone } from '../phone/index.js';
import { handleCommand, type StoredDecider } from '../shared/apply-command.js';
import type { Clock } from '../shared/clock.js';
import type { DomainEvent, EventActor } from '../shared/domain-event.js';
import { NotFoundError, ValidationError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Cents } from '../shared/money.js';
import type { Page, PageRequest } from '../shared/pagination.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import { contractDecider, newContract, type Contract, type ContractChanges, type ContractCommand, type ContractEvent, type ContractSigner } from './contract.js';
import type { ContractFilter, ContractRepositories } from './contract-repositories.js';
import { assertVariablesFilled } from './contract-template.js';
import type { SigningProviders } from './signing-provider.js';

type ContractRepos = Repositories<ContractRepositories>;

/** The most extra signers a contract takes (the client always signs). */
export const MAX_EXTRA_SIGNERS = 5;
export const DEFAULT_EXPIRES_IN_DAYS = 30;
/** The body's size limit (Markdown subset). */
export const MAX_CONTENT_LENGTH = 100_000;

/** `POST /v1/contracts`. */
export interface NewContractInput {
  title: string;
  clientId: string;
  templateId?: string | null;
  variables?: Record<string, string>;
  content?: string | null;
  value?: Cents | null;
  opportunityId?: string | null;
  signers?: { name: string; phone: string }[];
  expiresInDays?: number;
}

/** `PATCH /v1/contracts/:id`: the POST fields but the client. */
export type ContractPatch = Partial<Omit<NewContractInput, 'clientId'>>;

/** A contract with its client, as the API shows it (sanitised by the view). */
export interface ContractDetail {
  contract: Contract;
  client: ClientRef | null;
}

function eventBase(ids: IdGenerator, contract: Contract, at: Date, actor: EventActor) {
  return { id: ids.newId(), companyId: contract.companyId, setorId: contract.delivery?.setorId ?? null, occurredAt: at, actor };
}

/**
 * Where a contract's state lives for `handleCommand`: its row (locked by `load`) and the events
 * `contract.sent`, `contract.signed`, `contract.refused` of its changes.
 */
export function storedContract(
  load: (repos: ContractRepos) => Promise<Contract | null>,
  actor: EventActor,
  ids: IdGenerator,
): StoredDecider<ContractRepos, Contract | null, ContractCommand, ContractEvent> {
  return {
    decider: contractDecider,
    load,
    async save(repos, state) {
      if (state) await repos.contracts.update(state);
    },
    outbox(state, events) {
      if (!state) return [];
      const facts: DomainEvent[] = [];
      const ref = { contractId: state.id, clientId: state.clientId, opportunityId: state.opportunityId };
      for (const event of events) {
        if (event.type === 'sent') {
          facts.push({
            ...eventBase(ids, state, event.at, actor),
            event: 'contract.sent',
            data: {
              ...ref,
              title: state.title,
              value: state.value === null ? null : state.value / 100,
              signerCount: state.signers.length,
              sentAt: event.at.toISOString(),
              expiresAt: event.expiresAt.toISOString(),
              provider: state.provider,
            },
          });
        } else if (event.type === 'signed') {
          facts.push({ ...eventBase(ids, state, event.at, actor), event: 'contract.signed', data: { ...ref, signedAt: event.at.toISOString(), documentSha256: state.document?.sha256 ?? null } });
        } else if (event.type === 'refused') {
          facts.push({
            ...eventBase(ids, state, event.at, actor),
            event: 'contract.refused',
            data: { ...ref, refusedAt: event.at.toISOString(), signerId: event.signerId, reason: event.reason },
          });
        }
      }
      return facts;
    },
  };
}

function signer(ids: IdGenerator, name: string, phone: string): ContractSigner {
  return { id: ids.newId(), name, phone, status: 'pending', signedAt: null, refusedAt: null, refusalReason: null, providerRef: null };
}

type DraftRepos = Repositories<ContractRepositories & CrmRepositories & ContactRepositories & CompanyRepositories>;

/** The body and template of a draft: a template's body with its variables checked, or the given content. */
async function bodyOf(repos: DraftRepos, companyId: string, templateId: string | null | undefined, content: string | null | undefined, variables: Record<string, string>) {
  if (templateId && content) throw new ValidationError('Give template_id (with variables) or content, not both', { field: 'content' });
  if (templateId) {
    const template = await repos.contractTemplates.findById(companyId, templateId);
    if (!template || !template.active) throw new NotFoundError('Contract template', { template_id: templateId });
    assertVariablesFilled(template, variables);
    return { templateId: template.id, content: template.body };
  }
  if (!content?.trim()) throw new ValidationError('template_id or content is required', { field: 'template_id' });
  if (content.length > MAX_CONTENT_LENGTH) throw new ValidationError(`content is longer than ${MAX_CONTENT_LENGTH} characters`, { field: 'content' });
  return { templateId: null, content };
}

async function checkOpportunity(repos: DraftRepos, companyId: string, opportunityId: string | null | undefined) {
  if (opportunityId && !(await repos.opportunities.findById(companyId, opportunityId))) throw new NotFoundError('Opportunity', { opportunity_id: opportunityId });
}

async function extraSigners(repos: DraftRepos, companyId: string, ids: IdGenerator, list: { name: string; phone: string }[]): Promise<ContractSigner[]> {
  if (list.length > MAX_EXTRA_SIGNERS) throw new ValidationError(`At most ${MAX_EXTRA_SIGNERS} extra signers`, { field: 'signers' });
  const company = await repos.companies.findById(companyId);
  return list.map((s, i) => signer(ids, s.name.trim(), normalizePhone(s.phone, `signers[${i}].phone`, company?.defaultCountry)));
}

/** `POST /v1/contracts`: a draft. */
export class CreateContract {
  constructor(
    private readonly uow: UnitOfWork<ContractRepositories & CrmRepositories & ContactRepositories & CompanyRepositories>,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(companyId: string, input: NewContractInput): Promise<Contract> {
    return this.uow.transaction(async (repos) => {
      const title = input.title.trim();
      if (!title) throw new ValidationError('title must not be empty', { field: 'title' });
      const client = await repos.contacts.findById(companyId, input.clientId);
      if (!client) throw new NotFoundError('Client', { client_id: input.clientId });
      const variables = input.variables ?? {};
      const body = await bodyOf(repos, companyId, input.templateId, input.content, variables);
      await checkOpportunity(repos, companyId, input.opportunityId);
      const now = this.clock.now();
      const contract = newContract(
        {
          id: this.ids.newId(),
          companyId,
          title,
          value: input.value ?? null,
          clientId: client.id,
          opportunityId: input.opportunityId ?? null,
          templateId: body.templateId,
          variables,
          content: body.content,
          signers: [signer(this.ids, client.name ?? client.phone, client.phone), ...(await extraSigners(repos, companyId, this.ids, input.signers ?? []))],
          expiresInDays: input.expiresInDays ?? DEFAULT_EXPIRES_IN_DAYS,
        },
        now,
      );
      await repos.contracts.insert(contract);
      return contract;
    });
  }
}

/** `PATCH /v1/contracts/:id`: only a draft (409 CONFLICT otherwise). */
export class UpdateContract {
  constructor(
    private readonly uow: UnitOfWork<ContractRepositories & CrmRepositories & ContactRepositories & CompanyRepositories>,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(companyId: string, id: string, patch: ContractPatch, actor: EventActor): Promise<Contract> {
    return this.uow.transaction(async (repos) => {
      const current = await repos.contracts.findByIdForUpdate(companyId, id);
      if (!current) throw new NotFoundError('Contract');
      // A contract past its draft is refused before its new fields are looked at (409, not a 404 of a template).
      contractDecider.decide({ type: 'edit', at: this.clock.now(), changes: {} }, current);
      const changes: ContractChanges = {};
      if (patch.title !== undefined) {
        changes.title = patch.title.trim();
        if (!changes.title) throw new ValidationError('title must not be empty', { field: 'title' });
      }
      if (patch.value !== undefined) changes.value = patch.value;
      if (patch.expiresInDays !== undefined) changes.expiresInDays = patch.expiresInDays;
      if (patch.opportunityId !== undefined) {
        await checkOpportunity(repos, companyId, patch.opportunityId);
        changes.opportunityId = patch.opportunityId;
      }
      if (patch.templateId === undefined && patch.content === undefined && patch.variables !== undefined && current.templateId) {
        // Only the variables of a draft made from a template: it keeps the text it was made with (a template edited or
        // deactivated since changes no draft); they are checked against the template's list, active or not.
        const template = await repos.contractTemplates.findById(companyId, current.templateId);
        if (template) assertVariablesFilled(template, patch.variables);
        changes.variables = patch.variables;
      } else if (patch.templateId !== undefined || patch.content !== undefined || patch.variables !== undefined) {
        const variables = patch.variables ?? current.variables;
        const templateId = patch.content ? null : (patch.templateId ?? current.templateId);
        const body = await bodyOf(repos, companyId, templateId, templateId ? null : (patch.content ?? current.content), variables);
        Object.assign(changes, { variables, templateId: body.templateId, content: body.content });
      }
      if (patch.signers !== undefined) changes.signers = [current.signers[0]!, ...(await extraSigners(repos, companyId, this.ids, patch.signers))];
      const result = await handleCommand(repos, storedContract(async () => current, actor, this.ids), { type: 'edit', at: this.clock.now(), changes });
      return result!.state!;
    });
  }
}

/** Reads: list and the detail. */
export class ReadContracts {
  constructor(private readonly repos: Repositories<ContractRepositories & ContactRepositories>) {}

  async list(companyId: string, filter: ContractFilter, page: PageRequest): Promise<Page<ContractDetail>> {
    const found = await this.repos.contracts.list(companyId, filter, page);
    const clients = await clientsById(this.repos, companyId, found.items.map((c) => c.clientId));
    return { ...found, items: found.items.map((contract) => ({ contract, client: clients.get(contract.clientId) ?? null })) };
  }

  async detail(companyId: string, id: string): Promise<ContractDetail> {
    const contract = await this.repos.contracts.findById(companyId, id);
    if (!contract) throw new NotFoundError('Contract');
    const clients = await clientsById(this.repos, companyId, [contract.clientId]);
    return { contract, client: clients.get(contract.clientId) ?? null };
  }
}

/**
 * `DELETE /v1/contracts/:id`: a draft or a sent contract is cancelled (a repeat answers the same);
 * a sent one's envelope is then cancelled at the provider so that its links stop signing.
 */
export class CancelContract {
  constructor(
    private readonly uow: UnitOfWork<ContractRepositories>,
    private readonly providers: SigningProviders,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(companyId: string, id: string, actor: EventActor): Promise<Contract> {
    const result = await this.uow.transaction((repos) =>
      handleCommand(repos, storedContract((r) => r.contracts.findByIdForUpdate(companyId, id), actor, this.ids), { type: 'cancel', at: this.clock.now() }),
    );
    if (!result?.state) throw new NotFoundError('Contract');
    const { state } = result;
    if (result.events.length > 0 && state.provider && state.providerRef) {
      // Best effort: a cancelled contract ignores later signatures anyway (the decider drops them).
      await this.providers
        .byName(state.provider)
        ?.cancelEnvelope(state.providerRef)
        .catch(() => undefined);
    }
    return state;
  }
}
