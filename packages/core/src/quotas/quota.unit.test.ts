import { describe, expect, it } from '@jest/globals';
import { DomainError } from '../shared/errors.js';
import { assertWithinQuota, quotaLimit, quotaWindow } from './quota.js';

const company = (planCode: string, unlimited = false) => ({ planCode, unlimited, timezone: 'America/Sao_Paulo' });
const now = new Date('2026-03-31T23:30:00.000Z'); // 20:30 of 31 March in Brasília

describe('plan quotas', () => {
  it('take the plan limits of business.md §0 (trial / basic / others), none for unlimited companies, and operator overrides', () => {
    expect(['trial', 'basic', 'pro'].map((p) => quotaLimit(company(p), 'contracts_per_month'))).toEqual([5, 50, 500]);
    expect(['trial', 'basic', 'pro'].map((p) => quotaLimit(company(p), 'appointments_per_month'))).toEqual([50, 500, 5_000]);
    expect(['trial', 'basic', 'pro'].map((p) => quotaLimit(company(p), 'scheduled_messages_pending'))).toEqual([20, 200, 2_000]);
    expect(['trial', 'basic', 'pro'].map((p) => quotaLimit(company(p), 'lead_searches_per_day'))).toEqual([2, 10, 50]);
    expect(quotaLimit(company('trial', true), 'contracts_per_month')).toBeNull();
    expect(quotaLimit(company('trial'), 'contracts_per_month', { contracts_per_month: 7 })).toBe(7);
    expect(quotaLimit(company('trial'), 'contracts_per_month', { contracts_per_month: null })).toBe(5);
  });

  it('count months and days in the company zone, and live counts without a window', () => {
    expect(quotaWindow('contracts_per_month', now, 'America/Sao_Paulo')).toEqual({
      from: new Date('2026-03-01T03:00:00.000Z'),
      resetsAt: new Date('2026-04-01T03:00:00.000Z'),
    });
    expect(quotaWindow('lead_searches_per_day', now, 'America/Sao_Paulo')).toEqual({
      from: new Date('2026-03-31T03:00:00.000Z'),
      resetsAt: new Date('2026-04-01T03:00:00.000Z'),
    });
    expect(quotaWindow('contracts_per_month', new Date('2026-12-15T12:00:00.000Z'), 'America/Sao_Paulo')?.resetsAt).toEqual(new Date('2027-01-01T03:00:00.000Z'));
    expect(quotaWindow('scheduled_messages_pending', now, 'America/Sao_Paulo')).toBeNull();
  });

  it('refuse the unit past the limit with 402 PLAN_LIMIT_REACHED and its details; never test keys or unlimited companies', () => {
    expect(() => assertWithinQuota({ company: company('trial'), quota: 'contracts_per_month', used: 4, now })).not.toThrow();
    let refused: unknown;
    try {
      assertWithinQuota({ company: company('trial'), quota: 'contracts_per_month', used: 5, now });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ code: 'PLAN_LIMIT_REACHED', details: { quota: 'contracts_per_month', limit: 5, used: 5, resets_at: '2026-04-01T03:00:00.000Z' } });
    expect(() => assertWithinQuota({ company: company('trial'), quota: 'scheduled_messages_pending', used: 20, now })).toThrow(
      expect.objectContaining({ details: expect.objectContaining({ resets_at: null }) }),
    );
    expect(() => assertWithinQuota({ company: company('trial'), quota: 'contracts_per_month', used: 99, now, testMode: true })).not.toThrow();
    expect(() => assertWithinQuota({ company: company('trial', true), quota: 'contracts_per_month', used: 99, now })).not.toThrow();
    expect(() => assertWithinQuota({ company: company('trial'), quota: 'contracts_per_month', used: 3, adding: 3, now })).toThrow(DomainError);
  });
});
