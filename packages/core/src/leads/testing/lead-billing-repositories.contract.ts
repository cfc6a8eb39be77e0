import { describe, expect, it } from '@jest/globals';
import { createCompany } from '../../companies/index.js';
import { createSetor } from '../../setores/index.js';
import type { RepositoriesUnderTest } from '../../shared/testing/index.js';
import type { BillingRepositories } from '../../billing/index.js';
import type { CompanyRepositories } from '../../companies/index.js';
import type { LeadRepositories } from '../index.js';
import type { SetorRepositories } from '../../setores/index.js';
import type { Payment } from '../../billing/index.js';
import type { Lead, LeadSearchCriteria } from '../lead.js';
import { createLeadSearch } from '../lead-search.js';

/** The areas this suite reads and writes. */
type Areas = BillingRepositories & CompanyRepositories & LeadRepositories & SetorRepositories;

const t0 = new Date('2026-03-01T12:00:00.000Z');
const at = (ms: number) => new Date(t0.getTime() + ms);
const criteria: LeadSearchCriteria = { cnaes: ['4721102'], municipios: ['3550308'], ufs: [], includeMei: true, onlyWithPhone: false, onlyWithEmail: false, limit: 10 };
const lead = (n: number): Lead => ({
  cnpj: `1122233300${String(n).padStart(4, '0')}`,
  razaoSocial: `EMPRESA ${n}`,
  nomeFantasia: null,
  cnaePrincipal: '4721102',
  situacao: 'ATIVA',
  porte: 'ME',
  isMei: false,
  address: { street: 'Rua A', number: '1', district: 'Centro', city: 'São Paulo', uf: 'SP', postalCode: '01001000', ibgeCode: '3550308' },
  phones: [`+55119876500${String(n).padStart(2, '0')}`],
  email: null,
});

/** The behaviour every implementation of the leads and billing repositories must show. */
export function describeLeadAndBillingRepositoriesContract(name: string, setup: () => Promise<RepositoriesUnderTest<Areas>>): void {
  describe(`leads and billing repositories contract: ${name}`, () => {
    let run = 0;
    const fresh = async () => {
      run += 1;
      const id = (n: number) => `f${run.toString().padStart(7, '0')}-0000-4000-8000-${n.toString().padStart(12, '0')}`;
      const sut = await setup();
      const company = createCompany(id(1), t0, { name: 'Acme' });
      const other = createCompany(id(2), t0, { name: 'Other' });
      await sut.repos.companies.insert(company);
      await sut.repos.companies.insert(other);
      return { ...sut, company, other, id };
    };

    it('stores searches by company, hides expired ones, and counts live searches since an instant', async () => {
      const { repos, company, other, id } = await fresh();
      const live = createLeadSearch(id(10), company.id, { id: id(3), mode: 'live' }, criteria, 'sample', t0);
      const test = createLeadSearch(id(11), company.id, { id: id(4), mode: 'test' }, criteria, 'sample', at(1000));
      await repos.leadSearches.insert(live);
      await repos.leadSearches.insert(test);
      expect(await repos.leadSearches.findById(company.id, live.id, at(1))).toEqual(live);
      expect(await repos.leadSearches.findById(other.id, live.id, at(1))).toBeNull();
      expect(await repos.leadSearches.findById(company.id, live.id, live.expiresAt)).toBeNull();
      expect(await repos.leadSearches.countLiveSince(company.id, t0)).toBe(1);
      expect(await repos.leadSearches.countLiveSince(company.id, at(1))).toBe(0);
      const updated = { ...live, status: 'running' as const, cursor: '100', returned: 3, total: 9, creditsUsed: 3, pagesRead: 1, startedAt: at(5), datasetMonth: '2026-01' };
      await repos.leadSearches.update(updated);
      expect(await repos.leadSearches.findByIdForUpdate(live.id)).toEqual(updated);
      expect((await repos.leadSearches.listUnfinished(10)).sort()).toEqual([live.id, test.id].sort());
      await repos.leadSearches.update({ ...updated, status: 'completed', completedAt: at(9) });
      expect(await repos.leadSearches.listUnfinished(10)).toEqual([test.id]);
    });

    it('keeps leads by position (a position already stored is kept), pages them, and deletes expired searches with their leads', async () => {
      const { repos, company, id } = await fresh();
      const search = createLeadSearch(id(20), company.id, { id: id(3), mode: 'live' }, criteria, 'sample', t0);
      await repos.leadSearches.insert(search);
      await repos.leadSearches.appendItems(search.id, 0, [lead(0), lead(1), lead(2)]);
      await repos.leadSearches.appendItems(search.id, 2, [lead(99), lead(3)]);
      const page = await repos.leadSearches.listItems(search.id, { page: 2, limit: 2 });
      expect(page).toMatchObject({ total: 4, page: 2, limit: 2, totalPages: 2 });
      expect(page.items).toEqual([lead(2), lead(3)]);
      expect(await repos.leadSearches.deleteExpired(at(1000))).toBe(0);
      expect(await repos.leadSearches.deleteExpired(search.expiresAt)).toBeGreaterThanOrEqual(1);
      expect(await repos.leadSearches.findByIdForUpdate(search.id)).toBeNull();
      expect((await repos.leadSearches.listItems(search.id, { page: 1, limit: 10 })).total).toBe(0);
    });

    it('caches number checks per company and box, newest answer kept, and deletes old ones', async () => {
      const { repos, company, other, id } = await fresh();
      const setor = createSetor(id(30), company.id, t0, { nome: 'Caixa' });
      await repos.setores.insert(setor);
      await repos.channelChecks.save(company.id, setor.id, [
        { phone: '+5511987650001', hasChannel: false, checkedAt: t0 },
        { phone: '+5511987650002', hasChannel: true, checkedAt: t0 },
      ]);
      await repos.channelChecks.save(company.id, setor.id, [{ phone: '+5511987650002', hasChannel: false, checkedAt: at(60_000) }]);
      const found = await repos.channelChecks.find(company.id, setor.id, ['+5511987650001', '+5511987650002', '+5511987650003'], t0);
      expect(found.sort((a, b) => a.phone.localeCompare(b.phone))).toEqual([
        { phone: '+5511987650001', hasChannel: false, checkedAt: t0 },
        { phone: '+5511987650002', hasChannel: false, checkedAt: at(60_000) },
      ]);
      expect(await repos.channelChecks.find(company.id, setor.id, ['+5511987650001'], at(1))).toEqual([]);
      expect(await repos.channelChecks.find(other.id, setor.id, ['+5511987650001'], t0)).toEqual([]);
      expect(await repos.channelChecks.deleteCheckedBefore(at(1))).toBeGreaterThanOrEqual(1);
      expect(await repos.channelChecks.find(company.id, setor.id, ['+5511987650001', '+5511987650002'], t0)).toHaveLength(1);
    });

    it('moves stored balances atomically, never below zero', async () => {
      const { repos, company, other } = await fresh();
      expect(await repos.billing.balances(company.id)).toEqual({ ai_credits: 0, lead_credits: 0 });
      expect(await repos.billing.adjust(company.id, 'lead_credits', -1)).toBeNull();
      expect(await repos.billing.adjust(company.id, 'lead_credits', 5)).toBe(5);
      expect(await repos.billing.adjust(company.id, 'lead_credits', -5)).toBe(0);
      expect(await repos.billing.adjust(company.id, 'lead_credits', -1)).toBeNull();
      expect(await repos.billing.adjust(company.id, 'ai_credits', 7)).toBe(7);
      expect(await repos.billing.balances(company.id)).toEqual({ ai_credits: 7, lead_credits: 0 });
      expect(await repos.billing.balances(other.id)).toEqual({ ai_credits: 0, lead_credits: 0 });
    });

    it('keeps one payment per external reference and company, newest first', async () => {
      const { repos, company, other, id } = await fresh();
      const payment = (n: number, ref: string, companyId = company.id): Payment => ({
        id: id(40 + n),
        companyId,
        kind: 'lead_credits',
        units: 10,
        amountCents: 990,
        method: 'pix',
        externalRef: ref,
        balanceAfter: 10 * n,
        paidAt: at(n),
        createdAt: at(n),
      });
      expect(await repos.billing.insertPayment(payment(1, 'a'))).toBe(true);
      expect(await repos.billing.insertPayment(payment(2, 'a'))).toBe(false);
      expect(await repos.billing.insertPayment(payment(3, 'b'))).toBe(true);
      expect(await repos.billing.insertPayment(payment(4, 'a', other.id))).toBe(true);
      expect(await repos.billing.findPaymentByExternalRef(company.id, 'a')).toEqual(payment(1, 'a'));
      expect(await repos.billing.findPaymentByExternalRef(company.id, 'zzz')).toBeNull();
      const list = await repos.billing.listPayments(company.id, { page: 1, limit: 10 });
      expect(list.items.map((p) => p.externalRef)).toEqual(['b', 'a']);
      expect(list.total).toBe(2);
    });

    it('claims each alert level once until re-armed (exhausted claims low too), and keeps thresholds', async () => {
      const { repos, company } = await fresh();
      expect(await repos.billing.thresholds(company.id)).toEqual({});
      await repos.billing.setThresholds(company.id, { lead_credits: 20 });
      await repos.billing.setThresholds(company.id, { lead_credits: 30, messages: null });
      expect(await repos.billing.thresholds(company.id)).toEqual({ lead_credits: 30, messages: null });
      expect(await repos.billing.claimAlert(company.id, 'lead_credits', 'low')).toEqual(expect.any(String));
      expect(await repos.billing.claimAlert(company.id, 'lead_credits', 'low')).toBeNull();
      expect(await repos.billing.claimAlert(company.id, 'messages', 'exhausted')).toEqual(expect.any(String));
      expect(await repos.billing.claimAlert(company.id, 'messages', 'low')).toBeNull();
      expect(await repos.billing.claimAlert(company.id, 'lead_credits', 'exhausted')).toEqual(expect.any(String));
      await repos.billing.rearmAlerts(company.id, 'lead_credits');
      expect(await repos.billing.claimAlert(company.id, 'lead_credits', 'low')).toEqual(expect.any(String));
      expect(await repos.billing.claimAlert(company.id, 'messages', 'exhausted')).toBeNull();
    });
  });
}
