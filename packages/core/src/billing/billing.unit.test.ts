import { describe, expect, it } from '@jest/globals';
import { createCompany } from '../companies/index.js';
import { SequentialIds } from '../shared/testing/deterministic.js';
import { InMemoryUnitOfWork } from '../testing/in-memory-unit-of-work.js';
import { ManualClock } from '../shared/testing/manual-clock.js';
import { effectiveThresholds, lowBalanceLevel } from './billing.js';
import { GetBalance, RecordPayment } from './billing-use-cases.js';
import { debitUpTo } from './debit-credits.js';

describe('low-balance levels', () => {
  it('alerts a downward crossing of the threshold and reaching zero, nothing else', () => {
    expect(lowBalanceLevel(101, 100, 100)).toBe('low');
    expect(lowBalanceLevel(150, 20, 100)).toBe('low');
    expect(lowBalanceLevel(100, 99, 100)).toBeNull(); // already at the threshold
    expect(lowBalanceLevel(200, 150, 100)).toBeNull();
    expect(lowBalanceLevel(5, 0, 100)).toBe('exhausted');
    expect(lowBalanceLevel(500, 0, 100)).toBe('exhausted');
    expect(lowBalanceLevel(0, 0, 100)).toBeNull();
    expect(lowBalanceLevel(10, 20, 100)).toBeNull(); // a credit
    expect(lowBalanceLevel(10, 5, null)).toBeNull();
  });

  it('uses the defaults unless the operator set a threshold', () => {
    expect(effectiveThresholds({})).toEqual({ messages: 100, ai_credits: null, lead_credits: 50 });
    expect(effectiveThresholds({ lead_credits: 10, messages: null })).toEqual({ messages: 100, ai_credits: null, lead_credits: 10 });
  });
});

describe('debits, payments and alerts', () => {
  it('debits never below zero, alerts once per crossing, and a payment re-arms', async () => {
    const clock = new ManualClock();
    const ids = new SequentialIds();
    const uow = new InMemoryUnitOfWork();
    const company = createCompany('c1', clock.now(), { name: 'Acme' });
    await uow.repos.companies.insert(company);
    const pay = new RecordPayment(uow, clock, ids);
    await pay.execute(company.id, { kind: 'lead_credits', units: 60, amountCents: 1000, method: 'pix', externalRef: 'p1' });
    const debit = (n: number) => uow.transaction((repos) => debitUpTo(repos, company, 'lead_credits', n, clock.now(), 'live'));
    expect(await debit(5)).toEqual({ taken: 5, charged: 5 });
    expect(await debit(5)).toEqual({ taken: 5, charged: 5 }); // 50: crosses 50
    expect(await debit(5)).toEqual({ taken: 5, charged: 5 });
    expect(await debit(100)).toEqual({ taken: 45, charged: 45 }); // to 0
    expect(await debit(1)).toEqual({ taken: 0, charged: 0 });
    const levels = () => uow.store.events.filter((e) => e.event === 'billing.low_balance').map((e) => e.data.level);
    expect(levels()).toEqual(['low', 'exhausted']);
    const replay = await pay.execute(company.id, { kind: 'lead_credits', units: 60, amountCents: 1000, method: 'pix', externalRef: 'p1' });
    expect(replay.replayed).toBe(true);
    expect((await uow.repos.billing.balances(company.id)).lead_credits).toBe(0);
    await pay.execute(company.id, { kind: 'lead_credits', units: 60, amountCents: 1000, method: 'pix', externalRef: 'p2' });
    await debit(20);
    expect(levels()).toEqual(['low', 'exhausted', 'low']);
    expect(uow.store.events.filter((e) => e.event === 'payment.received')).toHaveLength(2);
    expect(await new GetBalance(uow.repos).execute(company.id)).toMatchObject({ balances: { lead_credits: 40 }, low: ['ai_credits', 'lead_credits'] });
  });
});
