import { describe, expect, it } from '@jest/globals';
import { createCompany, displayedBalance, effectiveSettings, isExpired, paysPerMessage, updateCompany } from './company.js';

const t0 = new Date('2026-05-10T12:00:00.000Z');

describe('company settings', () => {
  it('applies plan defaults unless the company overrides them', () => {
    expect(effectiveSettings(createCompany('a', t0, { name: 'A' }))).toEqual({ dailyLimit: 5000, concurrentCampaignsLimit: 3, companyRpm: 60 });
    expect(effectiveSettings(createCompany('b', t0, { name: 'B', planCode: 'trial' }))).toEqual({ dailyLimit: 500, concurrentCampaignsLimit: 1, companyRpm: 60 });
    expect(effectiveSettings(createCompany('c', t0, { name: 'C', planCode: 'basic', dailyLimit: 50, companyRpm: 10 }))).toEqual({
      dailyLimit: 50,
      concurrentCampaignsLimit: 1,
      companyRpm: 10,
    });
  });

  it('reads the balance as the specification says for each modality', () => {
    expect(displayedBalance(createCompany('a', t0, { name: 'A', modality: 'avulso', avulsoBalance: 9 }))).toBe(9);
    expect(displayedBalance(createCompany('b', t0, { name: 'B', modality: 'mensal', avulsoBalance: 9 }))).toBe(0);
    expect(displayedBalance(createCompany('c', t0, { name: 'C', modality: 'avulso', avulsoBalance: 9, unlimited: true }))).toBe(-1);
    expect(paysPerMessage(createCompany('d', t0, { name: 'D', modality: 'avulso' }))).toBe(true);
    expect(paysPerMessage(createCompany('e', t0, { name: 'E', modality: 'avulso', unlimited: true }))).toBe(false);
  });

  it('expires an avulso company at its expires_at', () => {
    const company = createCompany('a', t0, { name: 'A', modality: 'avulso', expiresAt: new Date('2026-05-11T00:00:00.000Z') });
    expect(isExpired(company, new Date('2026-05-10T23:59:59.999Z'))).toBe(false);
    expect(isExpired(company, new Date('2026-05-11T00:00:00.000Z'))).toBe(true);
  });

  it('refuses safe hours that are out of range or inverted, and keeps untouched settings on update', () => {
    expect(() => createCompany('a', t0, { name: 'A', safeHours: { start: 22, end: 8 } })).toThrow(/safe_hours/);
    const company = createCompany('a', t0, { name: 'A', dailyLimit: 10 });
    const later = new Date(t0.getTime() + 1000);
    expect(updateCompany(company, later, { name: 'B' })).toEqual({ ...company, name: 'B', updatedAt: later });
    expect(updateCompany(company, later, { dailyLimit: null }).dailyLimit).toBeNull();
  });
});
