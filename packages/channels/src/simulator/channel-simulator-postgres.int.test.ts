import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createChannelInstance, createCompany, createSetor, type ChannelInstance, type SendRequest, type Setor } from '@carteiro/core';
import { FixedRandom, ManualClock, SequentialIds } from '@carteiro/core/testing';
import { KyselyChannelSimulatorStore, KyselyConversationWindowRepository, kyselyRepositories } from '@carteiro/postgres';
import { createTestDatabase, type TestDatabase } from '@carteiro/postgres/testing';
import { ChannelSimulator } from './channel-simulator.js';

/** Two simulators on one database stand for an API process and a worker process. */
describe('channel simulator on PostgreSQL (shared by processes)', () => {
  let database: TestDatabase;
  let setor: Setor;
  let instance: ChannelInstance;
  const clock = new ManualClock('2026-01-15T12:00:00.000Z');
  const simulator = (prefix: string) =>
    new ChannelSimulator(
      {
        clock,
        ids: { newId: (() => { const ids = new SequentialIds(); return () => ids.newId().replace(/^00000000/, prefix); })() },
        random: new FixedRandom(0.5),
        store: new KyselyChannelSimulatorStore(database.db),
        windows: new KyselyConversationWindowRepository(database.db),
      },
      { scanDelayMs: 2000 },
    );

  beforeAll(async () => {
    database = await createTestDatabase();
    const repos = kyselyRepositories(database.db);
    const company = createCompany('c1000000-0000-4000-8000-000000000001', clock.now(), { name: 'Acme' });
    await repos.companies.insert(company);
    setor = createSetor('51000000-0000-4000-8000-000000000001', company.id, clock.now(), { nome: 'Vendas' });
    await repos.setores.insert(setor);
    instance = { ...createChannelInstance('11000000-0000-4000-8000-000000000001', setor, clock.now()), status: 'connected', phoneNumber: '+5511911112222', connectedAt: clock.now() };
    await repos.channelInstances.insert(instance);
  });
  afterAll(() => database.destroy());

  const request = (clientMessageId: string, to = '+5511955551234'): SendRequest => ({
    setor,
    instance,
    mode: 'live',
    to,
    content: { kind: 'text', text: 'Olá' },
    clientMessageId,
  });

  it('sends a retried message once, whichever process retries it, even concurrently', async () => {
    const api = simulator('aaaaaaaa');
    const worker = simulator('bbbbbbbb');
    const [a, b] = await Promise.all([api.send(request('same-id')), worker.send(request('same-id'))]);
    expect(a).toEqual(b);
    const again = await worker.send(request('same-id'));
    expect(again).toEqual(a);
    const outbox = await new KyselyChannelSimulatorStore(database.db).listMessages({ to: '5511955551234', limit: 10 });
    expect(outbox.filter((m) => m.clientMessageId === 'same-id')).toHaveLength(1);
  });

  it('shows a ban recorded by one process to the other', async () => {
    const api = simulator('cccccccc');
    const worker = simulator('dddddddd');
    clock.advance(1000);
    expect(await worker.send(request('ban-1', '+5511955550005'))).toMatchObject({ ok: false, code: 'SENDER_BANNED' });
    expect(await api.sessionState({ setor, instance, mode: 'live' })).toEqual({ status: 'disconnected', phoneNumber: null });
    expect(await api.send(request('after-ban'))).toMatchObject({ ok: false, code: 'SENDER_DISCONNECTED' });
  });
});
