import { describe, expect, it } from '@jest/globals';
import { isValidCnpj } from '../contacts/index.js';
import type { LeadSearchCriteria } from './lead.js';
import { SampleLeadSource } from './sample-lead-source.js';

const criteria: LeadSearchCriteria = { cnaes: ['4721102', '5611201'], municipios: ['3550308', '1302603'], ufs: [], includeMei: true, onlyWithPhone: false, onlyWithEmail: false, limit: 1000 };

describe('the sample lead source', () => {
  it('is deterministic by seed and differs across seeds', () => {
    const a = new SampleLeadSource('seed-1').generate(criteria);
    expect(new SampleLeadSource('seed-1').generate(criteria)).toEqual(a);
    expect(new SampleLeadSource('seed-2').generate(criteria)).not.toEqual(a);
    expect(a.length).toBeGreaterThanOrEqual(12);
  });

  it('generates valid CNPJs over the asked codes and municipalities, simulator phones of the state and no personal data', () => {
    const leads = new SampleLeadSource().generate(criteria);
    for (const lead of leads) {
      expect(isValidCnpj(lead.cnpj)).toBe(true);
      expect(criteria.cnaes).toContain(lead.cnaePrincipal);
      expect(criteria.municipios).toContain(lead.address.ibgeCode);
      for (const phone of lead.phones) expect(phone).toMatch(lead.address.uf === 'SP' ? /^\+55119\d{8}$/ : /^\+55929\d{8}$/);
      if (lead.email) expect(lead.email).toMatch(/^contato@/);
    }
  });

  it('applies the filters and pages with a cursor', async () => {
    const source = new SampleLeadSource();
    const filtered = source.generate({ ...criteria, includeMei: false, onlyWithPhone: true, onlyWithEmail: true });
    expect(filtered.every((l) => !l.isMei && l.phones.length > 0 && l.email !== null)).toBe(true);
    const wide = { ...criteria, municipios: [], ufs: ['SP', 'RJ', 'MG', 'BA', 'RS'], cnaes: ['4721102', '5611201', '4712100', '9602501'] };
    const all = source.generate(wide);
    const first = await source.search(wide, null);
    expect(first.items).toEqual(all.slice(0, 100));
    expect(first.nextCursor).toBe('100');
    const second = await source.search(wide, first.nextCursor);
    expect(second.items).toEqual(all.slice(100, 200));
  });
});
