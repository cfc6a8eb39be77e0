import type { Page, PageRequest } from '../shared/pagination.js';
import type { Contract, ContractStatus } from './contract.js';
import type { ContractTemplate } from './contract-template.js';

/** Filters of the contract list. */
export interface ContractFilter {
  status?: ContractStatus;
  clientId?: string;
  opportunityId?: string;
  /** Part of the title, case-insensitive. */
  search?: string;
}

/** Contracts. Reads are scoped by company. */
export interface ContractRepository {
  insert(contract: Contract): Promise<void>;
  update(contract: Contract): Promise<void>;
  findById(companyId: string, id: string): Promise<Contract | null>;
  /** A contract named by id alone (the operator's simulator route). */
  findAnyById(id: string): Promise<Contract | null>;
  /** The contract, its row locked until the transaction ends. */
  findByIdForUpdate(companyId: string, id: string): Promise<Contract | null>;
  /** The contract of a provider's envelope, locked (provider webhooks name the envelope only). */
  findByProviderRefForUpdate(provider: string, providerRef: string): Promise<Contract | null>;
  /** Newest first. */
  list(companyId: string, filter: ContractFilter, page: PageRequest): Promise<Page<Contract>>;
  /** Contracts of the company sent by live keys at or after `since` (the contracts_per_month quota). */
  countSentSince(companyId: string, since: Date): Promise<number>;
  /** Contracts `sending` since before `before` (sends that died half-way), oldest first. */
  stuckSending(before: Date, limit: number): Promise<Contract[]>;
  /** `sent` contracts, least recently updated first (the reconcile walks them). */
  awaitingSignature(limit: number): Promise<Contract[]>;
}
export const ContractRepository = Symbol.for('carteiro.ContractRepository');

/** The company's templates. */
export interface ContractTemplateRepository {
  insert(template: ContractTemplate): Promise<void>;
  update(template: ContractTemplate): Promise<void>;
  findById(companyId: string, id: string): Promise<ContractTemplate | null>;
  /** A template named by id alone (the operator's routes). */
  findAnyById(id: string): Promise<ContractTemplate | null>;
  /** As findAnyById, the row locked until the transaction ends (an edit's read-change-write). */
  findAnyByIdForUpdate(id: string): Promise<ContractTemplate | null>;
  /** By name; inactive ones only when asked. */
  listByCompany(companyId: string, includeInactive: boolean): Promise<ContractTemplate[]>;
}
export const ContractTemplateRepository = Symbol.for('carteiro.ContractTemplateRepository');

/** Provider webhook events already handled (providers deliver at least once). */
export interface SigningEventLog {
  /** Records the event; false when it was recorded before (a repeat to ignore). */
  recordOnce(provider: string, eventId: string, at: Date): Promise<boolean>;
}
export const SigningEventLog = Symbol.for('carteiro.SigningEventLog');

/** The contracts area's repositories, as a transaction or the read bag carries them (see `Repositories`). */
export interface ContractRepositories {
  contracts: ContractRepository;
  contractTemplates: ContractTemplateRepository;
  signingEvents: SigningEventLog;
}
