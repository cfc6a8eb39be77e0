import { describe, expect, it } from '@jest/globals';
import type { ApiKey } from '../api-keys/index.js';
import { createCompany } from '../companies/index.js';
import { createSetor } from '../setores/index.js';
import { SequentialIds, type RepositoriesUnderTest } from '../shared/testing/index.js';
import type { AllAreas } from './in-memory-unit-of-work.js';

const uuid = (n: number) => `10000000-0000-4000-8000-${n.toString().padStart(12, '0')}`;
const t0 = new Date('2026-03-01T12:00:00.000Z');

/**
 * The behaviour every implementation of the foundation repositories must show; run against
 * the in-memory fakes and the Kysely adapters alike.
 */
export function describeFoundationRepositoriesContract(name: string, setup: () => Promise<RepositoriesUnderTest<AllAreas>>): void {
  describe(`foundation repositories contract: ${name}`, () => {
    const ids = new SequentialIds();
    const fresh = async () => {
      const sut = await setup();
      const company = createCompany(uuid(Number(ids.newId().slice(-6))), t0, { name: 'Acme', modality: 'avulso', avulsoBalance: 3 });
      await sut.repos.companies.insert(company);
      return { ...sut, company };
    };

    it('stores and reads back a company with every setting', async () => {
      const { repos, company } = await fresh();
      expect(await repos.companies.findById(company.id)).toEqual(company);
      const changed = { ...company, dailyLimit: 10, safeHours: { start: 9, end: 18 }, updatedAt: new Date(t0.getTime() + 1000) };
      await repos.companies.update(changed);
      expect(await repos.companies.findById(company.id)).toEqual(changed);
      expect(await repos.companies.findById(uuid(999_999))).toBeNull();
    });

    it('never lets the balance go below zero', async () => {
      const { repos, company } = await fresh();
      expect(await repos.companies.adjustBalance(company.id, -2)).toBe(1);
      expect(await repos.companies.adjustBalance(company.id, -2)).toBeNull();
      expect(await repos.companies.adjustBalance(company.id, 5)).toBe(6);
      expect((await repos.companies.findById(company.id))?.avulsoBalance).toBe(6);
    });

    it('rolls back every write of a failed transaction', async () => {
      const { repos, uow, company } = await fresh();
      await expect(
        uow.transaction(async (tx) => {
          await tx.companies.adjustBalance(company.id, -1);
          await tx.setores.insert(createSetor(uuid(500_001), company.id, t0, { nome: 'Lost' }));
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect((await repos.companies.findById(company.id))?.avulsoBalance).toBe(3);
      expect(await repos.setores.findById(uuid(500_001))).toBeNull();
    });

    it('finds keys by hash and lists them per company', async () => {
      const { repos, uow, company } = await fresh();
      const key: ApiKey = {
        id: uuid(600_000 + Number(ids.newId().slice(-6))),
        companyId: company.id,
        name: 'server',
        prefix: 'ak_test_abcd',
        keyHash: 'ab'.repeat(32),
        scopes: ['campaigns:read'],
        mode: 'test',
        rpm: 60,
        createdAt: t0,
        revokedAt: null,
        expiresAt: null,
      };
      await repos.apiKeys.insert(key);
      expect(await repos.apiKeys.findByHash(key.keyHash)).toEqual(key);
      await repos.apiKeys.update({ ...key, revokedAt: t0 });
      expect((await repos.apiKeys.findById(key.id))?.revokedAt).toEqual(t0);
      expect((await uow.transaction((tx) => tx.apiKeys.findByIdForUpdate(key.id)))?.revokedAt).toEqual(t0);
      const page = await repos.apiKeys.listByCompany(company.id, { page: 1, limit: 10 });
      expect(page.total).toBe(1);
      expect(page.totalPages).toBe(1);
    });

    it('scopes boxes by company and lists them oldest first', async () => {
      const { repos, company } = await fresh();
      const a = createSetor(uuid(700_001 + Number(ids.newId().slice(-6))), company.id, t0, { nome: 'A' });
      const b = createSetor(uuid(710_001 + Number(ids.newId().slice(-6))), company.id, new Date(t0.getTime() + 1), {
        nome: 'B',
        channelType: 'official',
        official: { phoneNumberId: '1', accessToken: 't', wabaId: 'w' },
      });
      await repos.setores.insert(b);
      await repos.setores.insert(a);
      expect(await repos.setores.findByIdInCompany(company.id, b.id)).toEqual(b);
      expect(await repos.setores.findByIdInCompany(uuid(123), b.id)).toBeNull();
      expect((await repos.setores.allOfCompany(company.id)).map((s) => s.nome)).toEqual(['A', 'B']);
      const page = await repos.setores.listByCompany(company.id, { page: 2, limit: 1 });
      expect(page.items.map((s) => s.nome)).toEqual(['B']);
      expect(page.totalPages).toBe(2);

      await repos.teams.insert({ id: uuid(800_001 + Number(ids.newId().slice(-6))), companyId: company.id, nome: 'T', setorIds: [b.id, a.id], autoAssign: false, maxOpenPerAgent: 10, createdAt: t0 });
      const teams = await repos.teams.listByCompany(company.id, { page: 1, limit: 10 });
      expect(teams.items[0]?.setorIds).toEqual([b.id, a.id]);
    });

    it('purges events older than the retention', async () => {
      const { uow, company } = await fresh();
      const event = (n: number, at: Date) => ({
        id: uuid(950_000 + n + Number(ids.newId().slice(-6)) * 10),
        event: 'contact.created' as const,
        companyId: company.id,
        setorId: null,
        occurredAt: at,
        data: { n },
        actor: { user_id: null, source: 'system' },
      });
      await uow.transaction((tx) => tx.events.record([event(1, new Date(t0.getTime() - 86_400_000)), event(2, t0)]));
      const cutoff = new Date(t0.getTime() - 1000);
      // Events the webhook fan-out has not taken yet are kept, however old.
      await uow.transaction((tx) => tx.events.purgeBefore(cutoff));
      while ((await uow.transaction((tx) => tx.webhookEvents.take(100))).length > 0);
      expect(await uow.transaction((tx) => tx.events.purgeBefore(cutoff))).toBe(1);
      expect(await uow.transaction((tx) => tx.events.purgeBefore(cutoff))).toBe(0);
    });

    it('counts sends per day for the company and the box', async () => {
      const { repos, company } = await fresh();
      const setor = createSetor(uuid(900_001 + Number(ids.newId().slice(-6))), company.id, t0, { nome: 'S' });
      await repos.setores.insert(setor);
      await repos.usage.addSent(company.id, setor.id, '2026-03-01', 3);
      await repos.usage.addSent(company.id, null, '2026-03-01', 2);
      await repos.usage.addSent(company.id, setor.id, '2026-03-02', 4);
      await repos.usage.addSent(company.id, setor.id, '2026-03-02', -10);
      expect(await repos.usage.sentByCompany(company.id, '2026-03-01')).toBe(5);
      expect(await repos.usage.sentBySetor(setor.id, '2026-03-01')).toBe(3);
      expect(await repos.usage.sentBySetor(setor.id, '2026-03-02')).toBe(0);
      expect(await repos.usage.setorHistory(setor.id, '2026-03-03')).toEqual({ activeDays: 1, totalSent: 3 });
    });

    it('adds the sends of several setores at once, entries of one key adding up', async () => {
      const { repos, company } = await fresh();
      const [a, b] = [1, 2].map((n) => createSetor(uuid(910_001 + n * 1000 + Number(ids.newId().slice(-6))), company.id, t0, { nome: `S${n}` }));
      for (const s of [a!, b!]) await repos.setores.insert(s);
      await repos.usage.addSent(company.id, a!.id, '2026-03-01', 1);
      await repos.usage.addSentAll([
        { companyId: company.id, setorId: b!.id, day: '2026-03-01', count: 2 },
        { companyId: company.id, setorId: a!.id, day: '2026-03-01', count: 3 },
        { companyId: company.id, setorId: a!.id, day: '2026-03-01', count: 4 },
        { companyId: company.id, setorId: a!.id, day: '2026-03-02', count: 0 },
        { companyId: company.id, setorId: b!.id, day: '2026-03-02', count: -1 },
      ]);
      await repos.usage.addSentAll([]);
      expect(await repos.usage.sentBySetor(a!.id, '2026-03-01')).toBe(8);
      expect(await repos.usage.sentBySetor(b!.id, '2026-03-01')).toBe(2);
      expect(await repos.usage.sentByCompany(company.id, '2026-03-01')).toBe(10);
      expect(await repos.usage.sentBySetor(b!.id, '2026-03-02')).toBe(0);
      expect(await repos.usage.sentByCompany(company.id, '2026-03-02')).toBe(0);
    });
  });
}
