import { describe, expect, it } from '@jest/globals';
import { createContact } from '../../contacts/index.js';
import { CONTRACT_T0, type RepositoriesUnderTest } from '../../shared/testing/index.js';
import { contractCases } from '../../companies/testing/index.js';
import type { CompanyRepositories } from '../../companies/index.js';
import type { ContactRepositories } from '../../contacts/index.js';
import type { CrmRepositories } from '../index.js';
import { ensureFunnel } from '../funnel-stages.js';
import { createProduct } from '../product.js';
import { newOpportunity, type Opportunity, type OpportunityHistoryEntry } from '../opportunity.js';

/** The areas this suite reads and writes. */
type Areas = CompanyRepositories & ContactRepositories & CrmRepositories;

const t0 = CONTRACT_T0;
const at = (ms: number) => new Date(t0.getTime() + ms);


/** The behaviour every implementation of the CRM repositories (funnel, catalogue, opportunities and history) must show. */
export function describeCrmRepositoriesContract(name: string, setup: () => Promise<RepositoriesUnderTest<Areas>>): void {
  describe(`crm repositories contract: ${name}`, () => {
    const tenants = contractCases('e', setup);
    const fresh = async () => {
      const { ids, company, other, ...sut } = await tenants();
      const client = createContact(ids.newId(), company.id, '+5511987650000', 'Ana', t0);
      await sut.repos.contacts.insert(client);
      const stages = await sut.uow.transaction((tx) => ensureFunnel(tx, company.id, ids, t0));
      const opportunity = (extra: Partial<Opportunity> = {}): Opportunity => ({
        ...newOpportunity({ id: ids.newId(), companyId: company.id, title: 'Site novo', stageId: stages[0]!.id, clientId: client.id }, t0),
        ...extra,
      });
      return { ...sut, ids, company, other, client, stages, opportunity };
    };

    it('seeds the default funnel once and reads it by position, only in its company', async () => {
      const { repos, uow, ids, company, other, stages } = await fresh();
      expect(stages.map((s) => [s.name, s.position, s.isWon, s.isLost, s.winProbability])).toEqual([
        ['Novo', 1, false, false, 10],
        ['Qualificado', 2, false, false, 30],
        ['Proposta', 3, false, false, 60],
        ['Negociação', 4, false, false, 80],
        ['Ganho', 5, true, false, 100],
        ['Perdido', 6, false, true, 0],
      ]);
      expect(await uow.transaction((tx) => ensureFunnel(tx, company.id, ids, t0))).toEqual(stages);
      expect(await repos.funnelStages.findById(company.id, stages[0]!.id)).toEqual(stages[0]);
      expect(await repos.funnelStages.findById(other.id, stages[0]!.id)).toBeNull();
      const held = await uow.transaction(async (tx) => [
        await tx.funnelStages.findByIdForUse(company.id, stages[0]!.id),
        await tx.funnelStages.findByIdForUpdate(company.id, stages[1]!.id),
        await tx.funnelStages.findByIdForUse(other.id, stages[0]!.id),
        await tx.funnelStages.findByIdForUpdate(other.id, stages[1]!.id),
      ]);
      expect(held).toEqual([stages[0], stages[1], null, null]);
      expect(await repos.funnelStages.companyOf(stages[0]!.id)).toBe(company.id);
      expect(await repos.funnelStages.companyOf(ids.newId())).toBeNull();
    });

    it('replaces the funnel whole, swapping positions without collisions', async () => {
      const { repos, company, stages } = await fresh();
      const [a, b, ...rest] = stages;
      const swapped = [{ ...b!, position: 1 }, { ...a!, position: 2, name: 'Lead' }, ...rest.slice(0, -1)];
      await repos.funnelStages.saveFunnel(company.id, swapped);
      const read = await repos.funnelStages.listByCompany(company.id);
      expect(read.map((s) => s.id)).toEqual(swapped.map((s) => s.id));
      expect(read[1]!.name).toBe('Lead');
      expect(await repos.funnelStages.isUsed(company.id, a!.id)).toBe(false);
    });

    it('keeps product names and SKUs unique per company, case-insensitive, and lists by name', async () => {
      const { repos, ids, company, other } = await fresh();
      const p = (companyId: string, name: string, sku: string | null) => createProduct(ids.newId(), companyId, t0, { name, price: 1000, sku });
      const site = p(company.id, 'Site', 'S-1');
      expect(await repos.products.insert(site)).toBeNull();
      expect(await repos.products.insert(p(company.id, 'site', 'S-2'))).toBe('name');
      expect(await repos.products.insert(p(company.id, 'Logo', 's-1'))).toBe('sku');
      expect(await repos.products.insert(p(other.id, 'Site', 'S-1'))).toBeNull();
      const app = p(company.id, 'App', null);
      expect(await repos.products.insert(app)).toBeNull();
      expect(await repos.products.insert(p(company.id, 'Banner', null))).toBeNull();
      const page = await repos.products.list(company.id, {}, { page: 1, limit: 2 });
      expect(page.items.map((x) => x.name)).toEqual(['App', 'Banner']);
      expect(page.total).toBe(3);
      expect((await repos.products.list(company.id, { q: 's-1' }, { page: 1, limit: 10 })).items).toEqual([site]);
      expect(await repos.products.findManyByIds(company.id, [site.id, app.id])).toEqual(expect.arrayContaining([site, app]));
      expect(await repos.products.findManyByIds(other.id, [site.id])).toEqual([]);
    });

    it('stores opportunities with their products, filters, counts and sums them', async () => {
      const { repos, company, other, stages, opportunity, ids } = await fresh();
      const a = opportunity({
        title: 'Site institucional',
        productsTotal: 150_000,
        products: [{ productId: ids.newId(), name: 'Site', quantity: 2, unitPrice: 75_000, discountPercent: 0, total: 150_000 }],
        createdAt: at(1),
        expectedCloseDate: '2026-04-30',
      });
      const b = opportunity({ title: 'App', value: 99_990, assigneeId: ids.newId(), stageId: stages[1]!.id, createdAt: at(2) });
      const won = opportunity({ title: 'Logo', value: 5_000, status: 'won', stageId: stages[4]!.id, closedAt: at(3), createdAt: at(3) });
      const gone = opportunity({ title: 'Gone', value: 7, deletedAt: at(4), createdAt: at(4) });
      for (const o of [a, b, won, gone]) await repos.opportunities.insert(o);
      expect(await repos.opportunities.findById(company.id, a.id)).toEqual(a);
      expect(await repos.opportunities.findById(other.id, a.id)).toBeNull();
      expect(await repos.opportunities.findById(company.id, gone.id)).toBeNull();
      expect((await repos.opportunities.findByIdForUpdate(company.id, gone.id))?.deletedAt).toEqual(at(4));
      // Several at once: the company's, not deleted, each once; an unknown id is left out.
      const many = await repos.opportunities.findManyByIds(company.id, [b.id, gone.id, a.id, ids.newId(), a.id]);
      expect(many.sort((x, y) => x.title.localeCompare(y.title))).toEqual([b, a]);
      expect(await repos.opportunities.findManyByIds(other.id, [a.id, b.id])).toEqual([]);
      expect(await repos.opportunities.findManyByIds(company.id, [])).toEqual([]);
      const list = await repos.opportunities.list(company.id, {}, { page: 1, limit: 10 });
      expect(list.items.map((o) => o.id)).toEqual([b.id, a.id]);
      expect(await repos.opportunities.count(company.id, {})).toEqual({ count: 2, valueTotal: 249_990 });
      expect(await repos.opportunities.count(company.id, { includeClosed: true })).toEqual({ count: 3, valueTotal: 254_990 });
      expect(await repos.opportunities.count(company.id, { status: 'won' })).toEqual({ count: 1, valueTotal: 5_000 });
      expect((await repos.opportunities.list(company.id, { assigneeId: null }, { page: 1, limit: 10 })).items.map((o) => o.id)).toEqual([a.id]);
      expect((await repos.opportunities.list(company.id, { assigneeId: b.assigneeId! }, { page: 1, limit: 10 })).items.map((o) => o.id)).toEqual([b.id]);
      expect((await repos.opportunities.list(company.id, { stageId: stages[1]!.id }, { page: 1, limit: 10 })).items.map((o) => o.id)).toEqual([b.id]);
      expect((await repos.opportunities.list(company.id, { q: 'INSTITUC' }, { page: 1, limit: 10 })).items.map((o) => o.id)).toEqual([a.id]);
      expect((await repos.opportunities.list(company.id, { clientId: ids.newId() }, { page: 1, limit: 10 })).total).toBe(0);
      expect(await repos.opportunities.count(other.id, { includeClosed: true })).toEqual({ count: 0, valueTotal: 0 });
      expect(await repos.funnelStages.isUsed(company.id, stages[4]!.id)).toBe(true);
      const changed = { ...a, title: 'Site novo', value: 1, products: [], productsTotal: 0, updatedAt: at(9) };
      await repos.opportunities.update(changed);
      expect(await repos.opportunities.findById(company.id, a.id)).toEqual(changed);
    });

    it('keeps the history newest first, limited, per company', async () => {
      const { repos, company, other, opportunity, ids } = await fresh();
      const o = opportunity();
      await repos.opportunities.insert(o);
      const entry = (ms: number, kind: OpportunityHistoryEntry['kind']): OpportunityHistoryEntry => ({
        id: ids.newId(),
        opportunityId: o.id,
        at: at(ms),
        actor: { user_id: 'u-1', source: 'api' },
        kind,
        changes: kind === 'updated' ? { title: { from: 'a', to: 'b' } } : {},
      });
      const e1 = entry(0, 'created');
      const e2 = entry(5, 'updated');
      const e3 = entry(5, 'won');
      await repos.opportunities.appendHistory(company.id, [e1]);
      await repos.opportunities.appendHistory(company.id, [e2, e3]);
      expect(await repos.opportunities.history(company.id, o.id, 10)).toEqual([e3, e2, e1]);
      expect(await repos.opportunities.history(company.id, o.id, 1)).toEqual([e3]);
      expect(await repos.opportunities.history(other.id, o.id, 10)).toEqual([]);
    });
  });
}
