import { describe, expect, it } from '@jest/globals';
import { createContact } from '../../contacts/index.js';
import { CONTRACT_T0, type RepositoriesUnderTest } from '../../shared/testing/index.js';
import { contractCases } from '../../companies/testing/index.js';
import type { CompanyRepositories } from '../../companies/index.js';
import type { ContactRepositories } from '../../contacts/index.js';
import type { ContractRepositories } from '../index.js';
import { newContract, type Contract } from '../contract.js';
import type { ContractTemplate } from '../contract-template.js';

/** The areas this suite reads and writes. */
type Areas = CompanyRepositories & ContactRepositories & ContractRepositories;

const t0 = CONTRACT_T0;
const at = (ms: number) => new Date(t0.getTime() + ms);


/** The behaviour every implementation of the contracts repositories (contracts, templates, the provider event log) must show. */
export function describeContractRepositoriesContract(name: string, setup: () => Promise<RepositoriesUnderTest<Areas>>): void {
  describe(`contract repositories contract: ${name}`, () => {
    const tenants = contractCases('f', setup);
    const fresh = async () => {
      const { ids, company, other, ...sut } = await tenants();
      const client = createContact(ids.newId(), company.id, '+5511987650200', 'Ana', t0);
      await sut.repos.contacts.insert(client);
      const contract = (extra: Partial<Contract> = {}): Contract => ({
        ...newContract(
          {
            id: ids.newId(),
            companyId: company.id,
            title: 'Prestação de serviços',
            value: 123_456,
            clientId: client.id,
            opportunityId: null,
            templateId: null,
            variables: { prazo: '30 dias' },
            content: '# Contrato\n\nEntre {{empresa_nome}} e {{cliente_nome}}.',
            signers: [{ id: ids.newId(), name: 'Ana', phone: client.phone, status: 'pending', signedAt: null, refusedAt: null, refusalReason: null, providerRef: null }],
            expiresInDays: 30,
          },
          t0,
        ),
        ...extra,
      });
      return { ...sut, ids, company, other, client, contract };
    };

    it('stores contracts whole, per company, and finds them by provider envelope', async () => {
      const { repos, company, other, contract, ids } = await fresh();
      const draft = contract();
      await repos.contracts.insert(draft);
      expect(await repos.contracts.findById(company.id, draft.id)).toEqual(draft);
      expect(await repos.contracts.findById(other.id, draft.id)).toBeNull();
      expect(await repos.contracts.findAnyById(draft.id)).toEqual(draft);
      const ref = `env-${ids.newId()}`;
      const sent: Contract = {
        ...draft,
        status: 'sent',
        provider: 'simulator',
        providerRef: ref,
        signers: draft.signers.map((s) => ({ ...s, providerRef: 'sig-1', status: 'viewed' })),
        sentAt: at(1000),
        expiresAt: at(86_400_000),
        document: { pages: 2, sha256: 'ab'.repeat(32) },
        delivery: { setorId: ids.newId(), messageIds: [ids.newId(), ids.newId()] },
        updatedAt: at(1000),
      };
      await repos.contracts.update(sent);
      expect(await repos.contracts.findByIdForUpdate(company.id, draft.id)).toEqual(sent);
      expect(await repos.contracts.findByProviderRefForUpdate('simulator', ref)).toEqual(sent);
      expect(await repos.contracts.findByProviderRefForUpdate('zapsign', ref)).toBeNull();
    });

    it('lists with filters, counts sends since an instant, and finds stuck sends and contracts awaiting signature', async () => {
      const { repos, company, contract, ids } = await fresh();
      const opportunityId = ids.newId();
      const a = contract({ title: 'Contrato Alfa', createdAt: at(1) });
      const b = contract({ title: 'Contrato Beta', status: 'sent', sentAt: at(10), opportunityId, createdAt: at(2), updatedAt: at(2) });
      const c = contract({ title: 'Gama', status: 'sending', sendingSince: at(5), createdAt: at(3) });
      const d = contract({ title: 'Delta', status: 'signed', sentAt: at(-10), createdAt: at(4) });
      for (const x of [a, b, c, d]) await repos.contracts.insert(x);
      const ids_ = async (filter: Parameters<typeof repos.contracts.list>[1]) => (await repos.contracts.list(company.id, filter, { page: 1, limit: 10 })).items.map((x) => x.id);
      expect(await ids_({})).toEqual([d.id, c.id, b.id, a.id]);
      expect(await ids_({ status: 'sent' })).toEqual([b.id]);
      expect(await ids_({ opportunityId })).toEqual([b.id]);
      expect(await ids_({ search: 'contrato' })).toEqual([b.id, a.id]);
      expect(await ids_({ clientId: ids.newId() })).toEqual([]);
      expect(await repos.contracts.countSentSince(company.id, at(0))).toBe(1);
      expect(await repos.contracts.countSentSince(company.id, at(-100))).toBe(2);
      await repos.contracts.insert(contract({ status: 'sent', sentAt: at(20), delivery: { setorId: ids.newId(), messageIds: [], mode: 'test' } }));
      expect(await repos.contracts.countSentSince(company.id, at(0))).toBe(1);
      expect((await repos.contracts.stuckSending(at(6), 10)).map((x) => x.id)).toContain(c.id);
      expect((await repos.contracts.stuckSending(at(5), 10)).map((x) => x.id)).not.toContain(c.id);
      expect((await repos.contracts.awaitingSignature(1000)).map((x) => x.id)).toContain(b.id);
    });

    it('keeps templates per company, active ones in lists by name', async () => {
      const { repos, uow, company, other, ids } = await fresh();
      const template = (name: string, active = true): ContractTemplate => ({
        id: ids.newId(),
        companyId: company.id,
        name,
        description: null,
        body: 'Olá {{cliente_nome}}, prazo {{prazo}}',
        variables: [{ key: 'prazo', label: 'Prazo', required: true }],
        active,
        createdAt: t0,
        updatedAt: t0,
      });
      const b = template('B');
      const a = template('A');
      const off = template('Z', false);
      for (const t of [b, a, off]) await repos.contractTemplates.insert(t);
      expect((await repos.contractTemplates.listByCompany(company.id, false)).map((t) => t.name)).toEqual(['A', 'B']);
      expect(await repos.contractTemplates.listByCompany(company.id, true)).toHaveLength(3);
      expect(await repos.contractTemplates.findById(company.id, a.id)).toEqual(a);
      expect(await repos.contractTemplates.findById(other.id, a.id)).toBeNull();
      await repos.contractTemplates.update({ ...a, active: false, updatedAt: at(1) });
      expect((await repos.contractTemplates.findAnyById(a.id))?.active).toBe(false);
      expect((await uow.transaction((tx) => tx.contractTemplates.findAnyByIdForUpdate(a.id)))?.active).toBe(false);
    });

    it('records a provider event once', async () => {
      const { repos, ids } = await fresh();
      const eventId = ids.newId();
      expect(await repos.signingEvents.recordOnce('zapsign', eventId, t0)).toBe(true);
      expect(await repos.signingEvents.recordOnce('zapsign', eventId, t0)).toBe(false);
      expect(await repos.signingEvents.recordOnce('simulator', eventId, t0)).toBe(true);
    });
  });
}
