import { describe, it } from '@jest/globals';
import { given } from '../shared/testing/decider-spec.js';
import { DomainError, InvalidTransitionError } from '../shared/errors.js';
import { contractDecider, newContract, type Contract, type ContractSigner } from './contract.js';

const at = new Date('2026-03-01T12:00:00.000Z');
const later = new Date('2026-03-01T12:05:00.000Z');
const signer = (id: string, extra: Partial<ContractSigner> = {}): ContractSigner => ({
  id,
  name: id,
  phone: '+5511987650000',
  status: 'pending',
  signedAt: null,
  refusedAt: null,
  refusalReason: null,
  providerRef: `ref-${id}`,
  ...extra,
});
const contract = (extra: Partial<Contract> = {}): Contract => ({
  ...newContract(
    { id: 'c1', companyId: 'co', title: 'Serviços', value: 1000, clientId: 'k1', opportunityId: null, templateId: null, variables: {}, content: 'x', signers: [signer('s1'), signer('s2')], expiresInDays: 30 },
    at,
  ),
  ...extra,
});
const sent = (extra: Partial<Contract> = {}) => contract({ status: 'sent', sentAt: at, provider: 'simulator', providerRef: 'env', ...extra });
const conflict = (e: unknown) => e instanceof DomainError && e.code === 'CONFLICT';

describe('contractDecider', () => {
  it('edits only drafts (409 CONFLICT otherwise)', () => {
    given(contractDecider, contract()).when({ type: 'edit', at: later, changes: { title: 'Novo' } }).thenState({ title: 'Novo', updatedAt: later });
    for (const status of ['sending', 'sent', 'signed', 'cancelled'] as const) {
      given(contractDecider, contract({ status })).when({ type: 'edit', at: later, changes: { title: 'x' } }).thenThrows(conflict);
    }
  });

  it('sends a draft: draft → sending → envelope recorded → sent; a second send of a non-draft is 409', () => {
    const sending = given(contractDecider, contract()).when({ type: 'start_send', at }).thenState({ status: 'sending', sendingSince: at });
    const recorded = given(contractDecider, sending)
      .when({ type: 'record_envelope', at, provider: 'simulator', providerRef: 'env', signerRefs: { s1: 'r1', s2: 'r2' } })
      .thenState({ provider: 'simulator', providerRef: 'env' });
    given(contractDecider, recorded)
      .when({ type: 'complete_send', at: later, document: { pages: 2, sha256: 'h' }, delivery: { setorId: 'b', messageIds: ['m1'] }, expiresAt: later })
      .thenState({ status: 'sent', sentAt: later, expiresAt: later, sendingSince: null, document: { pages: 2, sha256: 'h' } });
    given(contractDecider, sending).when({ type: 'start_send', at }).thenThrows(conflict);
    given(contractDecider, contract()).when({ type: 'complete_send', at, document: { pages: 1, sha256: 'h' }, delivery: { setorId: 'b', messageIds: [] }, expiresAt: at }).thenThrows(InvalidTransitionError);
  });

  it('returns a failed send to draft and forgets its envelope; aborting anything else changes nothing', () => {
    given(contractDecider, contract({ status: 'sending', sendingSince: at, provider: 'simulator', providerRef: 'env' }))
      .when({ type: 'abort_send', at: later })
      .thenState({ status: 'draft', sendingSince: null, provider: null, providerRef: null });
    given(contractDecider, sent()).when({ type: 'abort_send', at: later }).then([]);
  });

  it('cancels drafts and sent contracts; a repeat is a no-op; signed, refused, expired and sending are refused', () => {
    given(contractDecider, contract()).when({ type: 'cancel', at: later }).thenState({ status: 'cancelled', cancelledAt: later });
    given(contractDecider, sent()).when({ type: 'cancel', at: later }).then([{ type: 'cancelled', at: later }]);
    given(contractDecider, contract({ status: 'cancelled' })).when({ type: 'cancel', at: later }).then([]);
    for (const status of ['signed', 'refused', 'expired', 'sending'] as const) {
      given(contractDecider, contract({ status })).when({ type: 'cancel', at: later }).thenThrows(InvalidTransitionError);
    }
  });

  it('is signed when every signer has signed; one refusal refuses it; repeats and late reports change nothing', () => {
    const one = given(contractDecider, sent()).when({ type: 'signer_outcome', at: later, signerId: 's1', outcome: 'signed' }).then([{ type: 'signer_signed', at: later, signerId: 's1' }]);
    given(contractDecider, one).when({ type: 'signer_outcome', at: later, signerId: 's1', outcome: 'signed' }).then([]);
    given(contractDecider, one)
      .when({ type: 'signer_outcome', at: later, signerId: 's2', outcome: 'signed' })
      .then([
        { type: 'signer_signed', at: later, signerId: 's2' },
        { type: 'signed', at: later },
      ]);
    given(contractDecider, sent())
      .when({ type: 'signer_outcome', at: later, signerId: 's2', outcome: 'refused', reason: 'valor' })
      .thenState({ status: 'refused', refusedAt: later });
    given(contractDecider, sent()).when({ type: 'signer_outcome', at: later, signerId: 's1', outcome: 'viewed' }).then([{ type: 'signer_viewed', at: later, signerId: 's1' }]);
    given(contractDecider, contract({ status: 'cancelled' })).when({ type: 'signer_outcome', at: later, signerId: 's1', outcome: 'signed' }).then([]);
  });

  it('expires only sent contracts', () => {
    given(contractDecider, sent()).when({ type: 'expire', at: later }).thenState({ status: 'expired' });
    given(contractDecider, contract({ status: 'signed' })).when({ type: 'expire', at: later }).then([]);
  });
});
