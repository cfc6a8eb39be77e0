import { describe, expect, it } from '@jest/globals';
import { MessagingWorld } from '../testing/messaging-world.js';
import { chargeSend, debitUnits, refundSend, refundUnits, sendBlocker } from './send-credits.js';

const code = (c: string) => expect.objectContaining({ code: c });

describe('send credits', () => {
  it('debits an avulso company one unit per send and gives it back with the daily count', async () => {
    const world = new MessagingWorld();
    const company = await world.company({ modality: 'avulso', avulsoBalance: 1 });
    const now = world.clock.now();
    const charge = await world.uow.transaction((repos) => chargeSend(repos, company.id, 'live', null, now));
    expect(charge).toEqual({ debited: 1, counted: 1, day: '2026-01-15', setorId: null });
    expect((await world.repos.companies.findById(company.id))?.avulsoBalance).toBe(0);
    await expect(world.uow.transaction((repos) => chargeSend(repos, company.id, 'live', null, now))).rejects.toThrow(code('BULK_DISABLED'));
    await world.uow.transaction((repos) => refundSend(repos, company.id, charge));
    expect((await world.repos.companies.findById(company.id))?.avulsoBalance).toBe(1);
    expect(await world.repos.usage.sentByCompany(company.id, '2026-01-15')).toBe(0);
  });

  it('charges monthly and unlimited companies nothing but counts their sends', async () => {
    const world = new MessagingWorld();
    for (const company of [await world.company(), await world.company({ modality: 'avulso', unlimited: true })]) {
      const charge = await world.uow.transaction((repos) => chargeSend(repos, company.id, 'live', null, world.clock.now()));
      expect(charge).toMatchObject({ debited: 0, counted: 1 });
      expect(await debitUnits(world.repos, company, 5)).toBe(0);
    }
  });

  it('counts the day in the company time zone', async () => {
    const world = new MessagingWorld();
    const company = await world.company();
    // 01:30 UTC on the 16th is still the 15th in Brasília.
    const charge = await world.uow.transaction((repos) => chargeSend(repos, company.id, 'live', null, new Date('2026-01-16T01:30:00Z')));
    expect(charge.day).toBe('2026-01-15');
  });

  it('refuses inactive and expired accounts with PLAN_EXPIRED and touches nothing for test keys', async () => {
    const world = new MessagingWorld();
    const now = world.clock.now();
    expect(sendBlocker(await world.company({ modality: 'inativo' }), now)?.code).toBe('PLAN_EXPIRED');
    expect(sendBlocker(await world.company({ modality: 'avulso', avulsoBalance: 5, expiresAt: now }), now)?.code).toBe('PLAN_EXPIRED');
    expect(sendBlocker(await world.company({ modality: 'avulso', avulsoBalance: 0 }), now)?.code).toBe('BULK_DISABLED');
    expect(sendBlocker(await world.company({ modality: 'avulso', avulsoBalance: 0, unlimited: true }), now)).toBeNull();
    const inactive = await world.company({ modality: 'inativo' });
    expect(await world.uow.transaction((repos) => chargeSend(repos, inactive.id, 'test', null, now))).toMatchObject({ debited: 0, counted: 0 });
  });

  it('enforces the daily limit with 403 FORBIDDEN', async () => {
    const world = new MessagingWorld();
    const company = await world.company({ dailyLimit: 2 });
    await world.uow.transaction((repos) => chargeSend(repos, company.id, 'live', null, world.clock.now(), 2));
    await expect(world.uow.transaction((repos) => chargeSend(repos, company.id, 'live', null, world.clock.now()))).rejects.toThrow(code('FORBIDDEN'));
  });

  it('reserves and returns campaign units in bulk', async () => {
    const world = new MessagingWorld();
    const company = await world.company({ modality: 'avulso', avulsoBalance: 10 });
    expect(await debitUnits(world.repos, company, 7)).toBe(7);
    await expect(debitUnits(world.repos, company, 4)).rejects.toThrow(code('BULK_DISABLED'));
    await refundUnits(world.repos, company.id, 2);
    expect((await world.repos.companies.findById(company.id))?.avulsoBalance).toBe(5);
  });
});
