import { describe, expect, it } from '@jest/globals';
import type { ChannelSimulatorStore, SimulatedMessage } from '../index.js';
import type { InstanceHealth } from '../index.js';
import { createChannelInstance } from '../index.js';
import { createCompany } from '../../companies/index.js';
import { createSetor } from '../../setores/index.js';
import type { RepositoriesUnderTest } from '../../shared/testing/index.js';
import type { ChannelRepositories } from '../index.js';
import type { CompanyRepositories } from '../../companies/index.js';
import type { SetorRepositories } from '../../setores/index.js';

/** The areas this suite reads and writes. */
type Areas = ChannelRepositories & CompanyRepositories & SetorRepositories;

/** The channel repositories and the simulator store of one implementation. */
export interface ChannelRepositoriesUnderTest extends RepositoriesUnderTest<Areas> {
  simulatorStore: ChannelSimulatorStore;
}

const t0 = new Date('2026-03-01T12:00:00.000Z');
const at = (ms: number) => new Date(t0.getTime() + ms);
let counter = 0;
const uuid = () => {
  counter += 1;
  return `20000000-0000-4000-8000-${(Date.now() % 1e6).toString().padStart(6, '0')}${counter.toString().padStart(6, '0')}`;
};

/**
 * The behaviour every implementation of the channel repositories (instances, health, conversation
 * windows) and of the simulator store must show; run against the in-memory fakes and Kysely.
 */
export function describeChannelRepositoriesContract(name: string, setup: () => Promise<ChannelRepositoriesUnderTest>): void {
  describe(`channel repositories contract: ${name}`, () => {
    const fresh = async () => {
      const sut = await setup();
      const company = createCompany(uuid(), t0, { name: 'Acme' });
      await sut.repos.companies.insert(company);
      const setor = createSetor(uuid(), company.id, t0, { nome: 'Vendas' });
      await sut.repos.setores.insert(setor);
      const instance = createChannelInstance(uuid(), setor, t0);
      await sut.repos.channelInstances.insert(instance);
      return { ...sut, company, setor, instance };
    };

    it('stores instances one per box, scoped by company, with connected boxes listed', async () => {
      const { repos, company, setor, instance } = await fresh();
      expect(await repos.channelInstances.findByIdInCompany(company.id, instance.id)).toEqual(instance);
      expect(await repos.channelInstances.findByIdInCompany(uuid(), instance.id)).toBeNull();
      const connected = { ...instance, status: 'connected' as const, phoneNumber: '+5511988887777', connectedAt: at(5), qrRequestedAt: null, updatedAt: at(5) };
      await repos.channelInstances.update(connected);
      expect(await repos.channelInstances.findBySetor(setor.id)).toEqual(connected);
      expect(await repos.channelInstances.connectedSetorIds(company.id)).toEqual([setor.id]);
      await expect(repos.channelInstances.insert(createChannelInstance(uuid(), setor, t0))).rejects.toThrow();
    });

    it('keeps the last health per instance and a history by company and time', async () => {
      const { repos, company, setor, instance } = await fresh();
      const health: InstanceHealth = {
        instanceId: instance.id,
        companyId: company.id,
        setorId: setor.id,
        state: 'healthy',
        connected: true,
        responding: true,
        lastCheckedAt: at(60_000),
        lastOkAt: at(60_000),
        consecutiveFailures: 0,
        error: null,
      };
      await repos.channelHealth.save(health);
      const degraded = { ...health, state: 'degraded' as const, responding: false, lastCheckedAt: at(120_000), consecutiveFailures: 1, error: 'timeout' };
      await repos.channelHealth.save(degraded);
      expect(await repos.channelHealth.findByInstance(instance.id)).toEqual(degraded);
      expect(await repos.channelHealth.listByCompany(company.id)).toEqual([degraded]);
      expect(await repos.channelHealth.listByCompany(uuid())).toEqual([]);

      for (const minute of [1, 2, 3]) {
        await repos.channelHealth.appendHistory({
          instanceId: instance.id,
          companyId: company.id,
          setorId: setor.id,
          checkedAt: at(minute * 60_000),
          state: 'healthy',
          connected: true,
          responding: true,
          error: null,
        });
      }
      const since2 = await repos.channelHealth.historyOfCompany(company.id, at(2 * 60_000));
      expect(since2.map((h) => h.checkedAt)).toEqual([at(120_000), at(180_000)]);
      expect(await repos.channelHealth.purgeHistory(at(150_000))).toBeGreaterThanOrEqual(2);
      expect((await repos.channelHealth.historyOfCompany(company.id, t0)).map((h) => h.checkedAt)).toEqual([at(180_000)]);
    });

    it('records the last inbound per box and phone, matching the ninth-digit variants', async () => {
      const { repos, setor } = await fresh();
      expect(await repos.conversationWindows.lastInbound(setor.id, '+5511987654321')).toBeNull();
      await repos.conversationWindows.recordInbound(setor.id, '+5511987654321', at(1000));
      await repos.conversationWindows.recordInbound(setor.id, '+551187654321', at(500));
      expect(await repos.conversationWindows.lastInbound(setor.id, '+551187654321')).toEqual(at(1000));
      await repos.conversationWindows.recordInbound(setor.id, '5511987654321', at(2000));
      expect(await repos.conversationWindows.lastInbound(setor.id, '+5511987654321')).toEqual(at(2000));
      expect(await repos.conversationWindows.lastInbound(uuid(), '+5511987654321')).toBeNull();
    });

    it('keeps one simulated message per client id, lists newest first and filters', async () => {
      const { simulatorStore, company, setor, instance } = await fresh();
      const message = (n: number, to: string): SimulatedMessage => ({
        id: uuid(),
        clientMessageId: `client-${instance.id}-${n}`,
        companyId: company.id,
        setorId: setor.id,
        instanceId: instance.id,
        from: '+5511911112222',
        to,
        kind: n === 2 ? 'image' : 'text',
        text: `hello ${n}`,
        mediaUrl: n === 2 ? 'https://example.com/a.png' : null,
        mediaType: n === 2 ? 'image' : null,
        mediaFilename: null,
        templateName: null,
        payload: { kind: 'text', text: `hello ${n}` },
        outcome: n === 3 ? 'failed' : 'sent',
        errorCode: n === 3 ? 'RECIP_BLOCKED' : null,
        error: n === 3 ? 'blocked' : null,
        providerFailure: false,
        sentAt: at(n * 1000),
      });
      const first = message(1, '+5511900000001');
      expect(await simulatorStore.recordMessage(first)).toEqual({ message: first, created: true });
      const retry = { ...message(1, '+5511900000001'), text: 'changed' };
      expect(await simulatorStore.recordMessage(retry)).toEqual({ message: first, created: false });
      await simulatorStore.recordMessage(message(2, '+5511900000002'));
      await simulatorStore.recordMessage(message(3, '+5511900000002'));
      expect(await simulatorStore.findByClientMessageId(first.clientMessageId)).toEqual(first);
      const all = await simulatorStore.listMessages({ setorId: setor.id, limit: 10 });
      expect(all.map((m) => m.text)).toEqual(['hello 3', 'hello 2', 'hello 1']);
      expect(all[0]?.errorCode).toBe('RECIP_BLOCKED');
      const toTwo = await simulatorStore.listMessages({ to: '55 11 90000-0002', companyId: company.id, limit: 1 });
      expect(toTwo.map((m) => m.text)).toEqual(['hello 3']);
      expect(await simulatorStore.listMessages({ companyId: uuid(), limit: 10 })).toEqual([]);

      expect(await simulatorStore.purgeMessagesBefore(at(2500))).toBe(2);
      expect((await simulatorStore.listMessages({ setorId: setor.id, limit: 10 })).map((m) => m.text)).toEqual(['hello 3']);

      // Concurrent sends, a retried one among them: each client id is stored once, the first one wins.
      const four = message(4, '+5511900000004');
      const again = { ...message(4, '+5511900000004'), id: uuid(), text: 'duplicate' };
      const five = message(5, '+5511900000005');
      const three = { ...message(3, '+5511900000002'), id: uuid(), text: 'late retry' };
      const results = await Promise.all([four, again, five, three].map((m) => simulatorStore.recordMessage(m)));
      expect(results.map((r) => [r.message.text, r.created])).toEqual([
        ['hello 4', true],
        ['hello 4', false],
        ['hello 5', true],
        ['hello 3', false],
      ]);
    });

    it('remembers the latest end of a simulated session', async () => {
      const { simulatorStore, instance } = await fresh();
      expect(await simulatorStore.lastSessionEnd(instance.id)).toBeNull();
      await simulatorStore.recordSessionEnd(instance.id, { at: at(2000), reason: 'banned' });
      await simulatorStore.recordSessionEnd(instance.id, { at: at(1000), reason: 'logged_out' });
      expect(await simulatorStore.lastSessionEnd(instance.id)).toEqual({ at: at(2000), reason: 'banned' });
      await simulatorStore.recordSessionEnd(instance.id, { at: at(3000), reason: 'logged_out' });
      expect(await simulatorStore.lastSessionEnd(instance.id)).toEqual({ at: at(3000), reason: 'logged_out' });
    });
  });
}
