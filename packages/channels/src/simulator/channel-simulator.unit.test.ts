import { describe, expect, it } from '@jest/globals';
import {
  createChannelInstance,
  createSetor,
  type ChannelInstance,
  type Random,
  type SendRequest,
  type Setor,
} from '@carteiro/core';
import {
  describeChannelGatewayContract,
  FixedRandom,
  InMemoryChannelSimulatorStore,
  InMemoryStore,
  InMemoryConversationWindowRepository,
  ManualClock,
  SeededRandom,
  SequentialIds,
} from '@carteiro/core/testing';
import { ChannelSimulator } from './channel-simulator.js';
import { simulatedPhoneNumber } from './simulated-phone.js';

const SCAN_DELAY_MS = 2000;

function world(random: Random = new FixedRandom(0.5), scanDelayMs = SCAN_DELAY_MS) {
  const clock = new ManualClock('2026-01-15T12:00:00.000Z');
  const store = new InMemoryStore();
  const simulatorStore = new InMemoryChannelSimulatorStore(store);
  const windows = new InMemoryConversationWindowRepository(store);
  const ids = new SequentialIds();
  const simulator = new ChannelSimulator({ clock, ids, random, store: simulatorStore, windows }, { scanDelayMs });
  let n = 0;
  const box = (channelType: 'qr' | 'official' = 'qr') => {
    n += 1;
    const setor = createSetor(`setor-${n}`, 'company-1', clock.now(), {
      nome: `Caixa ${n}`,
      channelType,
      official: channelType === 'official' ? { phoneNumberId: `pn-${n}`, accessToken: 't', wabaId: 'w' } : null,
    });
    return { setor, instance: createChannelInstance(`instance-${n}`, setor, clock.now()) };
  };
  return { clock, simulatorStore, windows, simulator, box };
}

describeChannelGatewayContract('simulator', { boxTypes: ['qr', 'official'], idempotentSends: true, findsEarlierAttempts: true }, async () => {
  const w = world();
  return {
    gateway: w.simulator,
    now: () => w.clock.now(),
    qrBox: async () => w.box('qr'),
    officialBox: async () => w.box('official'),
    scan: async () => w.clock.advance(SCAN_DELAY_MS + SCAN_DELAY_MS / 2),
    openWindow: async (box, phone) => w.windows.recordInbound(box.setor.id, phone, w.clock.now()),
  };
});

describe('channel simulator', () => {
  const connectedBox = (w: ReturnType<typeof world>, type: 'qr' | 'official' = 'qr') => {
    const { setor, instance } = w.box(type);
    const connected: ChannelInstance = { ...instance, status: 'connected', phoneNumber: simulatedPhoneNumber(setor.id), connectedAt: w.clock.now() };
    return { setor, instance: connected };
  };
  const request = (box: { setor: Setor; instance: ChannelInstance }, to: string, extra: Partial<SendRequest> = {}): SendRequest => ({
    ...box,
    mode: 'live',
    to,
    content: { kind: 'text', text: 'Olá' },
    clientMessageId: `m-${Math.random()}`,
    ...extra,
  });

  it('is scanned SIMULATOR_SCAN_DELAY_MS after the first QR request, then pairs for half as long', async () => {
    const w = world();
    const { setor, instance } = w.box();
    const asked = { ...instance, qrRequestedAt: w.clock.now() };
    const target = { setor, instance: asked, mode: 'live' as const };
    expect(await w.simulator.sessionState(target)).toEqual({ status: 'disconnected', phoneNumber: null });
    w.clock.advance(SCAN_DELAY_MS);
    expect(await w.simulator.sessionState(target)).toEqual({ status: 'connecting', phoneNumber: null });
    w.clock.advance(SCAN_DELAY_MS / 2);
    expect(await w.simulator.sessionState(target)).toEqual({ status: 'connected', phoneNumber: simulatedPhoneNumber(setor.id) });
    expect(simulatedPhoneNumber(setor.id)).toMatch(/^\+55119\d{8}$/);
  });

  it('shows the same code within a QR window and a different one in the next', async () => {
    const w = world(new FixedRandom(0.5), 120_000);
    const { setor, instance } = w.box();
    const first = await w.simulator.connect({ setor, instance: { ...instance, qrRequestedAt: w.clock.now() }, mode: 'live' });
    w.clock.advance(30_000);
    const same = await w.simulator.connect({ setor, instance: { ...instance, qrRequestedAt: new Date(w.clock.now().getTime() - 30_000) }, mode: 'live' });
    expect(same.qrCode).toBe(first.qrCode);
    expect(same.expiresInSeconds).toBe(30);
    const next = await w.simulator.connect({ setor, instance: { ...instance, qrRequestedAt: w.clock.now() }, mode: 'live' });
    expect(next.qrCode).not.toBe(first.qrCode);
    expect(first.providerRef).toBe(`sim:${instance.id}`);
  });

  it('keeps every channel message in its outbox, newest first, with fallbacks as text items', async () => {
    const w = world();
    const box = connectedBox(w);
    await w.simulator.send(request(box, '+5511955551234', { content: { kind: 'text', text: 'primeira' } }));
    w.clock.advance(1000);
    await w.simulator.send(
      request(box, '+5511955551234', {
        content: { kind: 'interactive', interactiveType: 'button', bodyText: 'Escolha', buttons: [{ id: 'a', title: 'A' }] },
      }),
    );
    w.clock.advance(1000);
    await w.simulator.send(request(box, '+5511955550002', { content: { kind: 'media', mediaType: 'document', url: 'https://x/a.pdf', filename: 'a.pdf', caption: 'Contrato' } }));
    const items = await w.simulatorStore.listMessages({ setorId: box.setor.id, limit: 10 });
    expect(items.map((m) => [m.kind, m.text, m.outcome, m.errorCode])).toEqual([
      ['document', 'Contrato', 'failed', 'RECIP_BLOCKED'],
      ['text', 'Escolha\n\n1. A', 'sent', null],
      ['text', 'primeira', 'sent', null],
    ]);
    expect(items[0]).toMatchObject({ mediaUrl: 'https://x/a.pdf', mediaType: 'document', mediaFilename: 'a.pdf', from: box.instance.phoneNumber });
    expect(items[1]?.payload).toMatchObject({ kind: 'text', fallbackOf: 'interactive' });
  });

  it('keeps edits, deletes and reactions in its outbox as text items naming the operation and the message', async () => {
    const w = world();
    const box = connectedBox(w);
    const to = '+5511955551234';
    const sent = await w.simulator.send(request(box, to, { content: { kind: 'text', text: 'Oi' } }));
    if (!sent.ok) throw new Error('send failed');
    const ref = { to, providerMessageId: sent.providerMessageId };
    const target = { ...box, mode: 'live' as const };
    w.clock.advance(1000);
    expect(await w.simulator.editMessage(target, { ...ref, text: 'Olá' })).toEqual({ ok: true, at: w.clock.now() });
    w.clock.advance(1000);
    expect((await w.simulator.react(target, { ...ref, emoji: '👍' })).ok).toBe(true);
    w.clock.advance(1000);
    expect((await w.simulator.react(target, { ...ref, emoji: '' })).ok).toBe(true);
    w.clock.advance(1000);
    expect((await w.simulator.deleteMessage(target, ref)).ok).toBe(true);
    const items = await w.simulatorStore.listMessages({ setorId: box.setor.id, limit: 10 });
    expect(items.map((m) => [m.kind, m.text, m.payload, m.outcome])).toEqual([
      ['text', null, { operation: 'delete', providerMessageId: sent.providerMessageId }, 'sent'],
      ['text', null, { operation: 'reaction', providerMessageId: sent.providerMessageId, emoji: '' }, 'sent'],
      ['text', '👍', { operation: 'reaction', providerMessageId: sent.providerMessageId, emoji: '👍' }, 'sent'],
      ['text', 'Olá', { operation: 'edit', providerMessageId: sent.providerMessageId, text: 'Olá' }, 'sent'],
      ['text', 'Oi', { kind: 'text', text: 'Oi' }, 'sent'],
    ]);
    expect(items[0]).toMatchObject({ to, from: box.instance.phoneNumber, companyId: 'company-1', errorCode: null });
  });

  it('refuses edits and deletes on official boxes, and records failed operations of a session that is gone', async () => {
    const w = world();
    const official = connectedBox(w, 'official');
    const ref = { to: '+5511955551234', providerMessageId: 'x' };
    await expect(w.simulator.editMessage({ ...official, mode: 'live' }, { ...ref, text: 'x' })).rejects.toMatchObject({ code: 'UNPROCESSABLE' });
    await expect(w.simulator.deleteMessage({ ...official, mode: 'live' }, ref)).rejects.toMatchObject({ code: 'UNPROCESSABLE' });
    const qr = w.box('qr');
    const failed = await w.simulator.react({ ...qr, mode: 'live' }, { ...ref, emoji: '👍' });
    expect(failed).toMatchObject({ ok: false, code: 'SENDER_DISCONNECTED', providerFailure: false });
    const [item] = await w.simulatorStore.listMessages({ setorId: qr.setor.id, limit: 10 });
    expect(item).toMatchObject({ outcome: 'failed', errorCode: 'SENDER_DISCONNECTED', payload: { operation: 'reaction' } });
  });

  it('returns the original result for a retried send and stores one item', async () => {
    const w = world();
    const box = connectedBox(w);
    const first = await w.simulator.send(request(box, '+5511955550005', { clientMessageId: 'same' }));
    w.clock.advance(10_000);
    const again = await w.simulator.send(request(box, '+5511955551234', { clientMessageId: 'same' }));
    expect(again).toEqual(first);
    expect(first).toMatchObject({ ok: false, code: 'SENDER_BANNED' });
    expect(await w.simulatorStore.listMessages({ limit: 10 })).toHaveLength(1);
  });

  it('bans the sender on …0005 until a new QR session connects', async () => {
    const w = world();
    const box = connectedBox(w);
    await w.simulator.send(request(box, '+5511955550005'));
    expect(await w.simulator.sessionState({ ...box, mode: 'live' })).toEqual({ status: 'disconnected', phoneNumber: null });
    w.clock.advance(1000);
    const reconnecting = { ...box.instance, status: 'disconnected' as const, phoneNumber: null, qrRequestedAt: w.clock.now() };
    w.clock.advance(SCAN_DELAY_MS * 2);
    expect((await w.simulator.sessionState({ setor: box.setor, instance: reconnecting, mode: 'live' })).status).toBe('connected');
  });

  it('fails 5% of the other sends of test keys with a recipient or temporary code, never live ones', async () => {
    const unlucky = world(new FixedRandom(0.01));
    const box = connectedBox(unlucky);
    const failed = await unlucky.simulator.send(request(box, '+5511955551234', { mode: 'test' }));
    expect(failed).toMatchObject({ ok: false, providerFailure: false, code: expect.stringMatching(/^(RECIP_|TEMP_)/) });
    expect((await unlucky.simulator.send(request(box, '+5511955551234', { mode: 'live' }))).ok).toBe(true);
    const lucky = world(new FixedRandom(0.05));
    expect((await lucky.simulator.send(request(connectedBox(lucky), '+5511955551234', { mode: 'test' }))).ok).toBe(true);
  });

  it('refuses free content on official boxes outside the 24-hour window and allows it inside', async () => {
    const w = world();
    const box = connectedBox(w, 'official');
    expect(await w.simulator.send(request(box, '+5511987654321'))).toMatchObject({ ok: false, code: 'OFFICIAL_WINDOW_EXPIRED' });
    await w.windows.recordInbound(box.setor.id, '+551187654321', w.clock.now());
    expect((await w.simulator.send(request(box, '+5511987654321'))).ok).toBe(true);
    w.clock.advance(24 * 60 * 60 * 1000);
    expect(await w.simulator.send(request(box, '+5511987654321'))).toMatchObject({ ok: false, code: 'OFFICIAL_WINDOW_EXPIRED' });
    const template = request(box, '+5511987654321', { content: { kind: 'template', name: 'lembrete', language: 'pt_BR', components: [] } });
    expect((await w.simulator.send(template)).ok).toBe(true);
    expect((await w.simulatorStore.listMessages({ limit: 1 }))[0]).toMatchObject({ kind: 'template', templateName: 'lembrete' });
  });

  it('fails sends of a number that is not connected', async () => {
    const w = world();
    const { setor, instance } = w.box();
    expect(await w.simulator.send(request({ setor, instance }, '+5511955551234'))).toMatchObject({ ok: false, code: 'SENDER_DISCONNECTED' });
  });
});

describe('session cache', () => {
  it('reuses a session read for sessionCacheMs, but sees its own bans at once', async () => {
    const clock = new ManualClock('2026-03-01T12:00:00.000Z');
    const store = new InMemoryChannelSimulatorStore();
    let reads = 0;
    const counting = Object.assign(Object.create(store), {
      lastSessionEnd: (id: string) => {
        reads += 1;
        return store.lastSessionEnd(id);
      },
    }) as typeof store;
    const deps = { clock, ids: new SequentialIds(), random: new SeededRandom(1), store: counting, windows: new InMemoryConversationWindowRepository(new InMemoryStore()) };
    const here = new ChannelSimulator(deps, { scanDelayMs: 1000, sessionCacheMs: 1000 });
    const elsewhere = new ChannelSimulator(deps, { scanDelayMs: 1000 });
    const setor = createSetor('10000000-0000-4000-8000-000000000001', 'company', clock.now(), { nome: 'Caixa' });
    const instance = {
      id: '10000000-0000-4000-8000-000000000002',
      companyId: 'company',
      setorId: setor.id,
      status: 'connected' as const,
      phoneNumber: '+5511900000000',
      providerRef: 'sim:x',
      proxyConfigured: false,
      qrRequestedAt: clock.now(),
      connectedAt: clock.now(),
      disconnectedAt: null,
      profileName: null,
      profilePictureUrl: null,
      createdAt: clock.now(),
      updatedAt: clock.now(),
    };
    clock.advance(10);
    const target = { setor, instance, mode: 'live' as const };
    const send = (sim: ChannelSimulator, n: number, to = '+5511987650010') =>
      sim.send({ ...target, to, content: { kind: 'text', text: 'oi' }, clientMessageId: `m${n}` });

    expect((await send(here, 1)).ok).toBe(true);
    expect((await send(here, 2)).ok).toBe(true);
    expect(reads).toBe(1);

    // Another process bans the number: within the cache delay this one has not seen it yet.
    expect(await send(elsewhere, 3, '+5511987650005')).toMatchObject({ ok: false, code: 'SENDER_BANNED' });
    expect((await send(here, 4)).ok).toBe(true);
    clock.advance(1000);
    expect(await send(here, 5)).toMatchObject({ ok: false, code: 'SENDER_DISCONNECTED' });

    // Its own ban is seen at once.
    const fresh = { ...instance, id: '10000000-0000-4000-8000-000000000003', connectedAt: clock.now(), qrRequestedAt: clock.now() };
    clock.advance(10);
    const send2 = (n: number, to = '+5511987650010') => here.send({ setor, instance: fresh, mode: 'live', to, content: { kind: 'text', text: 'oi' }, clientMessageId: `f${n}` });
    expect((await send2(1)).ok).toBe(true);
    expect(await send2(2, '+5511987650005')).toMatchObject({ ok: false, code: 'SENDER_BANNED' });
    expect(await send2(3)).toMatchObject({ ok: false, code: 'SENDER_DISCONNECTED' });
  });
});
