import { describe, expect, it } from '@jest/globals';
import { CONTRACT_T0, type RepositoriesUnderTest } from '../../shared/testing/index.js';
import { contractCases } from '../../companies/testing/index.js';
import type { CompanyRepositories } from '../../companies/index.js';
import type { TagRepositories } from '../index.js';
import type { Tag } from '../index.js';
import { tagRuleFixture } from './tag-rule-fixture.js';

/** The areas this suite reads and writes. */
type Areas = CompanyRepositories & TagRepositories;

const t0 = CONTRACT_T0;


/** Tags (unique ignoring case, deletes with counts) and tag rules. */
export function describeTagRepositoriesContract(name: string, setup: () => Promise<RepositoriesUnderTest<Areas>>): void {
  describe(`tag repositories contract: ${name}`, () => {
    const tenants = contractCases('e', setup);
    const fresh = async () => {
      const { ids, company, other, ...sut } = await tenants();
      const tag = (companyId: string, tagName: string): Tag => ({ id: ids.newId(), companyId, name: tagName, description: null, color: '#FF0000', createdAt: t0, updatedAt: t0 });
      return { ...sut, ids, company, other, tag };
    };

    it('keeps names unique ignoring case per company, lists with q and renames', async () => {
      const { repos, company, other, tag } = await fresh();
      const vip = tag(company.id, 'VIP');
      expect(await repos.tags.insertUnique(vip)).toBeNull();
      expect(await repos.tags.insertUnique(tag(company.id, 'vip'))).toEqual(vip);
      expect(await repos.tags.insertUnique(tag(other.id, 'vip'))).toBeNull();
      const lead = tag(company.id, 'Lead quente');
      await repos.tags.insertUnique(lead);
      expect((await repos.tags.list(company.id, undefined, { page: 1, limit: 10 })).items.map((t) => t.name)).toEqual(['Lead quente', 'VIP']);
      expect((await repos.tags.list(company.id, 'QUEN', { page: 1, limit: 10 })).items).toEqual([lead]);
      expect(await repos.tags.count(company.id)).toBe(2);
      expect(await repos.tags.update({ ...lead, name: 'vip' })).toEqual(vip);
      expect(await repos.tags.update({ ...lead, name: 'Lead', description: 'd' })).toBeNull();
      expect(await repos.tags.findById(company.id, lead.id)).toMatchObject({ name: 'Lead', description: 'd' });
      expect(await repos.tags.findById(other.id, lead.id)).toBeNull();
    });

    it('stores rules, lists the enabled ones oldest first, scoped by company', async () => {
      const { repos, ids, company, other, tag } = await fresh();
      const vip = tag(company.id, 'vip');
      await repos.tags.insert(vip);
      const base = tagRuleFixture(ids.newId(), company.id, vip.id, t0, { matchType: 'regex', matchValue: 'or[cç]amento', setorIds: [ids.newId()] });
      const off = { ...base, id: ids.newId(), enabled: false, createdAt: new Date(t0.getTime() + 1), updatedAt: new Date(t0.getTime() + 1) };
      await repos.tagRules.insert(base);
      await repos.tagRules.insert(off);
      expect(await repos.tagRules.findById(company.id, base.id)).toEqual(base);
      expect(await repos.tagRules.findById(other.id, base.id)).toBeNull();
      expect(await repos.tagRules.listEnabled(company.id)).toEqual([base]);
      expect((await repos.tagRules.list(company.id, { page: 1, limit: 10 })).items).toEqual([base, off]);
      expect(await repos.tagRules.count(company.id)).toBe(2);
      const edited = { ...off, enabled: true, scope: 'conversation' as const, setorIds: [], updatedAt: new Date(t0.getTime() + 5) };
      await repos.tagRules.update(edited);
      expect(await repos.tagRules.listEnabled(company.id)).toEqual([base, edited]);
      expect(await repos.tagRules.delete(other.id, base.id)).toBe(false);
      expect(await repos.tagRules.delete(company.id, base.id)).toBe(true);
      expect(await repos.tagRules.count(company.id)).toBe(1);
    });
  });
}
