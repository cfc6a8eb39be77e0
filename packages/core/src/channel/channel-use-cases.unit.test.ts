import { beforeEach, describe, expect, it } from '@jest/globals';
import { createCompany } from '../companies/index.js';
import { createSetor, type Setor } from '../setores/index.js';
import { DomainError, InvalidTransitionError, NotFoundError, ValidationError } from '../shared/errors.js';
import { SequentialIds } from '../shared/testing/deterministic.js';
import { FakeChannelGateway } from './testing/fake-channel-gateway.js';
import { InMemoryUnitOfWork } from '../testing/in-memory-unit-of-work.js';
import { ManualClock } from '../shared/testing/manual-clock.js';
import { CheckChannelHealth } from './check-channel-health.js';
import { RefreshInstanceProfile, UpdateChannelProfiles } from './channel-profiles.js';
import { CreateChannelInstance } from './create-channel-instance.js';
import { DisconnectChannelInstance } from './disconnect-channel-instance.js';
import { GetChannelHealth } from './get-channel-health.js';
import { GetInstanceStatus } from './get-instance-status.js';
import { HandleSenderFailure } from './handle-sender-failure.js';
import { ListChannelInstances } from './list-channel-instances.js';
import { RequestInstanceQr } from './request-instance-qr.js';

let clock: ManualClock;
let ids: SequentialIds;
let uow: InMemoryUnitOfWork;
let gateway: FakeChannelGateway;
let setor: Setor;
let other: Setor;
const companyId = 'c0000000-0000-4000-8000-000000000001';
const otherCompanyId = 'c0000000-0000-4000-8000-000000000002';

beforeEach(async () => {
  clock = new ManualClock('2026-01-15T12:00:00.000Z');
  ids = new SequentialIds();
  uow = new InMemoryUnitOfWork();
  gateway = new FakeChannelGateway(clock);
  await uow.repos.companies.insert(createCompany(companyId, clock.now(), { name: 'Acme' }));
  await uow.repos.companies.insert(createCompany(otherCompanyId, clock.now(), { name: 'Outra' }));
  setor = createSetor('s0000000-0000-4000-8000-000000000001', companyId, clock.now(), { nome: 'Vendas' });
  other = createSetor('s0000000-0000-4000-8000-000000000002', otherCompanyId, clock.now(), { nome: 'Dela' });
  await uow.repos.setores.insert(setor);
  await uow.repos.setores.insert(other);
});

const useCases = () => ({
  create: new CreateChannelInstance(uow, clock, ids),
  qr: new RequestInstanceQr(uow, uow.repos, gateway, clock, ids),
  status: new GetInstanceStatus(uow, uow.repos, gateway, clock, ids),
  disconnect: new DisconnectChannelInstance(uow, uow.repos, gateway, clock, ids),
  senderFailure: new HandleSenderFailure(uow, clock, ids),
  check: new CheckChannelHealth(uow, uow.repos, gateway, clock, ids),
  health: new GetChannelHealth(uow.repos, clock),
  list: new ListChannelInstances(uow.repos),
  refresh: new RefreshInstanceProfile(uow, uow.repos, gateway, clock),
  profiles: new UpdateChannelProfiles(uow, uow.repos, gateway, clock),
});
const mode = 'test' as const;
const events = (name: string) => uow.store.events.filter((e) => e.event === name);

async function connectedInstance() {
  const u = useCases();
  const { instance } = await u.create.execute({ companyId, setorId: setor.id });
  await u.qr.execute({ companyId, instanceId: instance.id, mode });
  return u.status.execute({ companyId, instanceId: instance.id, mode });
}

describe('channel instance use cases', () => {
  it('creates a disconnected instance for a box once and reuses it after', async () => {
    const { create } = useCases();
    const first = await create.execute({ companyId, setorId: setor.id });
    expect(first).toMatchObject({ reused: false, instance: { status: 'disconnected', setorId: setor.id, proxyConfigured: false } });
    const second = await create.execute({ companyId, setorId: setor.id });
    expect(second).toEqual({ reused: true, instance: first.instance });
    await expect(create.execute({ companyId, setorId: other.id })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('gives the same QR code within 60 seconds with the seconds left, and a new window after', async () => {
    const { create, qr } = useCases();
    const { instance } = await create.execute({ companyId, setorId: setor.id });
    gateway.connect = async () => ({ qrCode: 'data:image/png;base64,AAAA', expiresInSeconds: 60 });
    expect(await qr.execute({ companyId, instanceId: instance.id, mode })).toEqual({
      instanceId: instance.id,
      qrCode: 'data:image/png;base64,AAAA',
      expiresInSeconds: 60,
      status: 'disconnected',
      phoneNumber: null,
    });
    const opened = (await uow.repos.channelInstances.findBySetor(setor.id))?.qrRequestedAt;
    clock.advance(20_000);
    expect((await qr.execute({ companyId, instanceId: instance.id, mode })).expiresInSeconds).toBe(40);
    expect((await uow.repos.channelInstances.findBySetor(setor.id))?.qrRequestedAt).toEqual(opened);
    clock.advance(40_000);
    expect((await qr.execute({ companyId, instanceId: instance.id, mode })).expiresInSeconds).toBe(60);
    expect((await uow.repos.channelInstances.findBySetor(setor.id))?.qrRequestedAt).toEqual(clock.now());
    await expect(qr.execute({ companyId: otherCompanyId, instanceId: instance.id, mode })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('polls the session to connected, recording channel.session_connected once', async () => {
    const { create, qr, status } = useCases();
    const { instance } = await create.execute({ companyId, setorId: setor.id });
    expect((await status.execute({ companyId, instanceId: instance.id, mode })).status).toBe('disconnected');
    await qr.execute({ companyId, instanceId: instance.id, mode });
    gateway.sessions.set(instance.id, { status: 'connecting', phoneNumber: null });
    expect((await status.execute({ companyId, instanceId: instance.id, mode })).status).toBe('connecting');
    gateway.sessions.set(instance.id, { status: 'connected', phoneNumber: '+5511987650000' });
    const connected = await status.execute({ companyId, instanceId: instance.id, mode });
    expect(connected).toMatchObject({ status: 'connected', phoneNumber: '+5511987650000', connectedAt: clock.now() });
    await status.execute({ companyId, instanceId: instance.id, mode });
    expect(events('channel.session_connected')).toHaveLength(1);
    expect(events('channel.session_connected')[0]).toMatchObject({ companyId, setorId: setor.id, data: { phoneNumber: '+5511987650000' } });
    await expect(qr.execute({ companyId, instanceId: instance.id, mode })).rejects.toBeInstanceOf(InvalidTransitionError);
  });

  it('takes the connected state an official box reports with its credentials, without a code', async () => {
    const { create, qr } = useCases();
    const { instance } = await create.execute({ companyId, setorId: setor.id });
    gateway.connect = async () => ({ qrCode: null, expiresInSeconds: 0, state: { status: 'connected', phoneNumber: '+5511933334444' } });
    expect(await qr.execute({ companyId, instanceId: instance.id, mode })).toEqual({
      instanceId: instance.id,
      qrCode: null,
      expiresInSeconds: 0,
      status: 'connected',
      phoneNumber: '+5511933334444',
    });
    expect(events('channel.session_connected')).toHaveLength(1);
  });

  it('disconnects at the provider and records channel.session_disconnected; again it changes nothing', async () => {
    const { disconnect } = useCases();
    const instance = await connectedInstance();
    const first = await disconnect.execute({ companyId, instanceId: instance.id, mode });
    expect(first).toMatchObject({ wasConnected: true, instance: { status: 'disconnected', phoneNumber: null } });
    expect(gateway.disconnected).toEqual([instance.id]);
    expect(events('channel.session_disconnected')[0]).toMatchObject({ data: { reason: 'user', phoneNumber: '+5511900000000' } });
    const second = await disconnect.execute({ companyId, instanceId: instance.id, mode });
    expect(second.wasConnected).toBe(false);
    expect(events('channel.session_disconnected')).toHaveLength(1);
    expect(gateway.disconnected).toHaveLength(1);
  });

  it('disconnects the box on a sender failure, in the caller transaction, and ignores other codes', async () => {
    const { senderFailure } = useCases();
    const instance = await connectedInstance();
    expect(await senderFailure.execute({ setorId: setor.id, code: 'RECIP_BLOCKED' })).toEqual({ disconnected: false, instance: null });
    await expect(
      uow.transaction(async (repos) => {
        await senderFailure.within(repos, { setorId: setor.id, code: 'SENDER_BANNED' });
        throw new Error('the caller failed');
      }),
    ).rejects.toThrow('the caller failed');
    expect((await uow.repos.channelInstances.findBySetor(setor.id))?.status).toBe('connected');

    const outcome = await senderFailure.execute({ setorId: setor.id, code: 'SENDER_BANNED', error: 'number banned' });
    expect(outcome).toMatchObject({ disconnected: true, instance: { id: instance.id, status: 'disconnected' } });
    expect(events('channel.session_disconnected')).toEqual([
      expect.objectContaining({
        setorId: setor.id,
        actor: { user_id: null, source: 'system' },
        data: expect.objectContaining({ reason: 'sender_failure', error_code: 'SENDER_BANNED', error: 'number banned' }),
      }),
    ]);
    expect((await senderFailure.execute({ setorId: setor.id, code: 'SENDER_DISCONNECTED' })).disconnected).toBe(false);
    expect(await uow.repos.channelInstances.connectedSetorIds(companyId)).toEqual([]);
  });

  it('lists the company instances with their boxes, paginated', async () => {
    const { create, list } = useCases();
    await create.execute({ companyId, setorId: setor.id });
    const page = await list.execute({ companyId, page: { page: 1, limit: 10 } });
    expect(page).toMatchObject({ total: 1, page: 1, totalPages: 1 });
    expect(page.items[0]?.setor.nome).toBe('Vendas');
    expect((await list.execute({ companyId: otherCompanyId, page: { page: 1, limit: 10 } })).total).toBe(0);
  });
});

describe('channel health', () => {
  it('records healthy, then degraded and down while the provider is silent, with history', async () => {
    const { check, health } = useCases();
    const instance = await connectedInstance();
    await check.execute();
    let [item] = await health.execute({ companyId });
    expect(item).toMatchObject({
      setorId: setor.id,
      setorNome: 'Vendas',
      phoneNumber: '+5511900000000',
      health: { state: 'healthy', connected: true, responding: true, consecutiveFailures: 0, error: null, lastOkAt: clock.now() },
    });
    const okAt = clock.now();
    gateway.unreachable.add(instance.id);
    const states: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      clock.advance(60_000);
      const summary = await check.execute();
      expect(summary.checked).toBe(1);
      [item] = await health.execute({ companyId });
      states.push(item!.health.state);
    }
    expect(states).toEqual(['degraded', 'degraded', 'down']);
    expect(item!.health).toMatchObject({ responding: false, consecutiveFailures: 3, lastOkAt: okAt, lastCheckedAt: clock.now() });

    // The window includes its start: checks at minutes 1, 2 and 3 are within the last 2 minutes of minute 3.
    const [withHistory] = await health.execute({ companyId, includeHistory: true, historyMinutes: 2 });
    expect(withHistory!.history!.map((h) => h.state)).toEqual(['degraded', 'degraded', 'down']);
    const [all] = await health.execute({ companyId, includeHistory: true, historyMinutes: 60 });
    expect(all!.history).toHaveLength(4);
  });

  it('moves an instance whose provider session closed to disconnected, and reports it down', async () => {
    const { check, health } = useCases();
    const instance = await connectedInstance();
    gateway.sessions.set(instance.id, { status: 'disconnected', phoneNumber: null });
    await check.execute();
    expect((await uow.repos.channelInstances.findBySetor(setor.id))?.status).toBe('disconnected');
    expect(events('channel.session_disconnected')[0]).toMatchObject({ data: { reason: 'session_lost' } });
    const [item] = await health.execute({ companyId });
    expect(item!.health).toMatchObject({ state: 'down', connected: false });
    expect(item!.phoneNumber).toBeNull();
  });

  it('reports unknown for boxes never checked or checked too long ago, and validates the window', async () => {
    const { create, check, health } = useCases();
    const extra = createSetor('s0000000-0000-4000-8000-000000000003', companyId, clock.now(), { nome: 'Sem instância' });
    await uow.repos.setores.insert(extra);
    await connectedInstance();
    const before = await health.execute({ companyId, includeHistory: true });
    expect(before.map((i) => [i.setorNome, i.health.state, i.history])).toEqual([
      ['Vendas', 'unknown', []],
      ['Sem instância', 'unknown', []],
    ]);
    await check.execute();
    clock.advance(5 * 60_000 + 1);
    expect((await health.execute({ companyId }))[0]!.health.state).toBe('unknown');
    await create.execute({ companyId, setorId: extra.id });
    await check.execute();
    expect((await health.execute({ companyId })).map((i) => i.health.state)).toEqual(['healthy', 'down']);
    for (const historyMinutes of [0, 1441, 1.5]) {
      await expect(health.execute({ companyId, historyMinutes })).rejects.toBeInstanceOf(ValidationError);
    }
  });

  it('purges history older than a day', async () => {
    const { check } = useCases();
    await connectedInstance();
    await check.execute();
    clock.advance(1440 * 60_000 + 60_000);
    const summary = await check.execute();
    expect(summary.purged).toBe(1);
  });
});

describe('channel profiles', () => {
  it('refreshes the profile of a connected instance and refuses a disconnected one', async () => {
    const { create, refresh } = useCases();
    const instance = await connectedInstance();
    gateway.fetchProfile = async () => ({ name: 'Loja', pictureUrl: 'https://cdn.example.com/p.jpg' });
    expect(await refresh.execute({ companyId, instanceId: instance.id, mode })).toMatchObject({
      profileName: 'Loja',
      profilePictureUrl: 'https://cdn.example.com/p.jpg',
    });
    const extra = createSetor('s0000000-0000-4000-8000-000000000004', companyId, clock.now(), { nome: 'Nova' });
    await uow.repos.setores.insert(extra);
    const created = await create.execute({ companyId, setorId: extra.id });
    await expect(refresh.execute({ companyId, instanceId: created.instance.id, mode })).rejects.toBeInstanceOf(InvalidTransitionError);
  });

  it('updates up to 20 numbers by box or phone, each succeeding or failing on its own', async () => {
    const { profiles } = useCases();
    await connectedInstance();
    const results = await profiles.execute({
      companyId,
      mode,
      items: [
        { phoneNumber: '5511900000000', name: 'Loja Centro' },
        { setorId: other.id, pictureUrl: 'https://cdn.example.com/x.jpg' },
      ],
    });
    expect(results[0]).toMatchObject({ success: true, setorId: setor.id, profileName: 'Loja Centro', error: null });
    expect(results[1]).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    expect((await uow.repos.channelInstances.findBySetor(setor.id))?.profileName).toBe('Loja Centro');
    gateway.updateProfile = async () => {
      throw new DomainError('PROVIDER_ERROR', 'provider down');
    };
    const failed = await profiles.execute({ companyId, mode, items: [{ setorId: setor.id, name: 'X' }] });
    expect(failed[0]).toMatchObject({ success: false, error: { code: 'PROVIDER_ERROR', message: 'provider down' } });
    const tooMany = Array.from({ length: 21 }, () => ({ setorId: setor.id, name: 'X' }));
    await expect(profiles.execute({ companyId, mode, items: tooMany })).rejects.toBeInstanceOf(ValidationError);
    await expect(profiles.execute({ companyId, mode, items: [{ setorId: setor.id }] })).rejects.toBeInstanceOf(ValidationError);
    await expect(profiles.execute({ companyId, mode, items: [{ setorId: setor.id, phoneNumber: '+5511900000000', name: 'x' }] })).rejects.toBeInstanceOf(
      ValidationError,
    );
  });
});
