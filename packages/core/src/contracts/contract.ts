import type { KeyMode } from '../api-keys/index.js';
import { DomainError, InvalidTransitionError, NotFoundError } from '../shared/errors.js';
import type { Decider } from '../shared/decider.js';
import type { Cents } from '../shared/money.js';

export type ContractStatus = 'draft' | 'sending' | 'sent' | 'signed' | 'refused' | 'expired' | 'cancelled';
export const ContractStatuses: readonly ContractStatus[] = ['draft', 'sending', 'sent', 'signed', 'refused', 'expired', 'cancelled'];

export type SignerStatus = 'pending' | 'viewed' | 'signed' | 'refused';

/** Someone who signs: the client first, then up to five more. */
export interface ContractSigner {
  id: string;
  name: string;
  /** E.164. */
  phone: string;
  status: SignerStatus;
  signedAt: Date | null;
  refusedAt: Date | null;
  refusalReason: string | null;
  /** The provider's id of the signer (never shown). */
  providerRef: string | null;
}

/** The rendered document: never its bytes, only what identifies it. */
export interface ContractDocument {
  pages: number;
  sha256: string;
}

/** Where the contract went: the setor and the channel messages (our ids). */
export interface ContractDelivery {
  setorId: string;
  messageIds: string[];
  /** The mode of the key that sent it: sends of test keys never count toward the plan quota. */
  mode?: KeyMode;
}

/** A contract for signature (business.md §4). */
export interface Contract {
  id: string;
  companyId: string;
  title: string;
  status: ContractStatus;
  value: Cents | null;
  clientId: string;
  opportunityId: string | null;
  templateId: string | null;
  /** Values of the template's variables. */
  variables: Record<string, string>;
  /** The body (Markdown subset) with `{{variables}}`, from the template or given. */
  content: string;
  signers: ContractSigner[];
  expiresInDays: number;
  sentAt: Date | null;
  expiresAt: Date | null;
  signedAt: Date | null;
  refusedAt: Date | null;
  cancelledAt: Date | null;
  /** When the current send began (status `sending`): the sweep returns sends stuck for 5 minutes. */
  sendingSince: Date | null;
  document: ContractDocument | null;
  delivery: ContractDelivery | null;
  /** The signing provider's name and its envelope id (set once an envelope exists; never shown). */
  provider: string | null;
  providerRef: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What a contract is created with; the rest of a new draft starts empty. */
export type NewContract = Pick<
  Contract,
  'id' | 'companyId' | 'title' | 'value' | 'clientId' | 'opportunityId' | 'templateId' | 'variables' | 'content' | 'signers' | 'expiresInDays'
>;

/** A new draft created `at`: not sent, signed, refused or cancelled, no document, delivery or envelope yet. */
export function newContract(input: NewContract, at: Date): Contract {
  return {
    id: input.id,
    companyId: input.companyId,
    title: input.title,
    status: 'draft',
    value: input.value,
    clientId: input.clientId,
    opportunityId: input.opportunityId,
    templateId: input.templateId,
    variables: input.variables,
    content: input.content,
    signers: input.signers,
    expiresInDays: input.expiresInDays,
    sentAt: null,
    expiresAt: null,
    signedAt: null,
    refusedAt: null,
    cancelledAt: null,
    sendingSince: null,
    document: null,
    delivery: null,
    provider: null,
    providerRef: null,
    createdAt: at,
    updatedAt: at,
  };
}

/** Fields a draft may change (PATCH: the POST fields but the client). */
export interface ContractChanges {
  title?: string;
  value?: Cents | null;
  opportunityId?: string | null;
  templateId?: string | null;
  variables?: Record<string, string>;
  content?: string;
  signers?: ContractSigner[];
  expiresInDays?: number;
}

/** What a signing provider reported about one signer. */
export type SignerOutcome = 'viewed' | 'signed' | 'refused';

export type ContractCommand =
  | { type: 'edit'; at: Date; changes: ContractChanges }
  | { type: 'cancel'; at: Date }
  | { type: 'start_send'; at: Date }
  | { type: 'record_envelope'; at: Date; provider: string; providerRef: string; signerRefs: Record<string, string> }
  | { type: 'complete_send'; at: Date; document: ContractDocument; delivery: ContractDelivery; expiresAt: Date }
  | { type: 'abort_send'; at: Date }
  | { type: 'signer_outcome'; at: Date; signerId: string; outcome: SignerOutcome; reason?: string | null }
  | { type: 'expire'; at: Date };

export type ContractEvent =
  | { type: 'edited'; at: Date; changes: ContractChanges }
  | { type: 'cancelled'; at: Date }
  | { type: 'send_started'; at: Date }
  | { type: 'envelope_recorded'; at: Date; provider: string; providerRef: string; signerRefs: Record<string, string> }
  | { type: 'sent'; at: Date; document: ContractDocument; delivery: ContractDelivery; expiresAt: Date }
  | { type: 'send_aborted'; at: Date }
  | { type: 'signer_viewed'; at: Date; signerId: string }
  | { type: 'signer_signed'; at: Date; signerId: string }
  /** Every signer has signed. */
  | { type: 'signed'; at: Date }
  | { type: 'refused'; at: Date; signerId: string; reason: string | null }
  | { type: 'expired'; at: Date };

function existing(state: Contract | null): Contract {
  if (!state) throw new NotFoundError('Contract');
  return state;
}

const refuse = (state: Contract, action: string, allowed: ContractStatus[]) => new InvalidTransitionError('contract', state.status, action, allowed);

/**
 * A contract's life: draft → sending → sent → signed | refused | expired; sending → draft when a
 * send fails; draft/sent → cancelled. Edits only while draft (409 CONFLICT). Signer reports that
 * arrive when the contract is no longer `sent` (late or repeated provider webhooks) change nothing.
 */
export const contractDecider: Decider<Contract | null, ContractCommand, ContractEvent> = {
  decide(command, state) {
    const contract = existing(state);
    switch (command.type) {
      case 'edit':
        if (contract.status !== 'draft') throw new DomainError('CONFLICT', 'Only a draft contract can be edited', { status: contract.status });
        return [{ type: 'edited', at: command.at, changes: command.changes }];
      case 'cancel':
        if (contract.status === 'cancelled') return [];
        if (contract.status !== 'draft' && contract.status !== 'sent') throw refuse(contract, 'cancel', ['draft', 'sent']);
        return [{ type: 'cancelled', at: command.at }];
      case 'start_send':
        if (contract.status !== 'draft') throw new DomainError('CONFLICT', 'Only a draft contract can be sent', { status: contract.status });
        return [{ type: 'send_started', at: command.at }];
      case 'record_envelope':
        if (contract.status !== 'sending') throw refuse(contract, 'record an envelope of', ['sending']);
        return [{ type: 'envelope_recorded', at: command.at, provider: command.provider, providerRef: command.providerRef, signerRefs: command.signerRefs }];
      case 'complete_send':
        if (contract.status !== 'sending') throw refuse(contract, 'complete the send of', ['sending']);
        return [{ type: 'sent', at: command.at, document: command.document, delivery: command.delivery, expiresAt: command.expiresAt }];
      case 'abort_send':
        if (contract.status !== 'sending') return [];
        return [{ type: 'send_aborted', at: command.at }];
      case 'signer_outcome': {
        if (contract.status !== 'sent') return [];
        const signer = contract.signers.find((s) => s.id === command.signerId);
        if (!signer) throw new NotFoundError('Signer', { signer_id: command.signerId });
        if (signer.status === 'signed' || signer.status === 'refused') return [];
        if (command.outcome === 'viewed') return signer.status === 'viewed' ? [] : [{ type: 'signer_viewed', at: command.at, signerId: signer.id }];
        if (command.outcome === 'refused') return [{ type: 'refused', at: command.at, signerId: signer.id, reason: command.reason ?? null }];
        const events: ContractEvent[] = [{ type: 'signer_signed', at: command.at, signerId: signer.id }];
        const others = contract.signers.filter((s) => s.id !== signer.id);
        if (others.every((s) => s.status === 'signed')) events.push({ type: 'signed', at: command.at });
        return events;
      }
      case 'expire':
        if (contract.status !== 'sent') return [];
        return [{ type: 'expired', at: command.at }];
    }
  },
  evolve(state, event) {
    if (!state) return state;
    const at = { updatedAt: event.at };
    const signer = (id: string, change: Partial<ContractSigner>) => state.signers.map((s) => (s.id === id ? { ...s, ...change } : s));
    switch (event.type) {
      case 'edited':
        return { ...state, ...event.changes, ...at };
      case 'cancelled':
        return { ...state, status: 'cancelled', cancelledAt: event.at, ...at };
      case 'send_started':
        return { ...state, status: 'sending', sendingSince: event.at, ...at };
      case 'envelope_recorded':
        return {
          ...state,
          provider: event.provider,
          providerRef: event.providerRef,
          signers: state.signers.map((s) => ({ ...s, providerRef: event.signerRefs[s.id] ?? s.providerRef })),
          ...at,
        };
      case 'sent':
        return { ...state, status: 'sent', sentAt: event.at, expiresAt: event.expiresAt, document: event.document, delivery: event.delivery, sendingSince: null, ...at };
      case 'send_aborted':
        return {
          ...state,
          status: 'draft',
          sendingSince: null,
          provider: null,
          providerRef: null,
          signers: state.signers.map((s) => ({ ...s, providerRef: null })),
          ...at,
        };
      case 'signer_viewed':
        return { ...state, signers: signer(event.signerId, { status: 'viewed' }), ...at };
      case 'signer_signed':
        return { ...state, signers: signer(event.signerId, { status: 'signed', signedAt: event.at }), ...at };
      case 'signed':
        return { ...state, status: 'signed', signedAt: event.at, ...at };
      case 'refused':
        return {
          ...state,
          status: 'refused',
          refusedAt: event.at,
          signers: signer(event.signerId, { status: 'refused', refusedAt: event.at, refusalReason: event.reason }),
          ...at,
        };
      case 'expired':
        return { ...state, status: 'expired', ...at };
    }
  },
};
