import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createChannelInstance, createSetor, type ChannelInstance, type Setor } from '@carteiro/core';
import { describeChannelGatewayContract } from '@carteiro/core/testing';
import { FakeEvolutionServer } from '../testing/fake-evolution-server.js';
import { FakeHttpServer } from '../testing/fake-server.js';
import { EvolutionGateway } from './evolution-gateway.js';
import { proxyForInstance, type EvolutionProxy } from './evolution-proxy.js';

const clock = { now: () => new Date() };
let boxes = 0;
function qrBox(): { setor: Setor; instance: ChannelInstance } {
  boxes += 1;
  const id = `00000000-0000-4000-8000-${Date.now().toString().slice(-6)}${boxes.toString().padStart(6, '0')}`;
  const setor = createSetor(id, 'company-1', new Date(), { nome: `Caixa ${boxes}` });
  return { setor, instance: createChannelInstance(id, setor, new Date()) };
}
// Timeouts well above a busy CI runner's slowest answer (a first instance/create renders a QR image), and the fake's
// hanging recipient well above them.
const options = { apiKey: 'evo-key', timeoutMs: 3000, probeTimeoutMs: 3000, retries: 1, retryBackoffMs: () => 10 };

describeChannelGatewayContract('QR provider (Evolution API) against a fake server', { boxTypes: ['qr'], idempotentSends: false, findsEarlierAttempts: true }, async () => {
  const fake = new FakeEvolutionServer({ apiKey: 'evo-key', hangMs: 8000 });
  const url = await fake.start();
  return {
    gateway: new EvolutionGateway({ baseUrl: url, ...options }, clock),
    now: () => new Date(),
    qrBox: async () => qrBox(),
    scan: async (box) => fake.scan(EvolutionGateway.instanceName(box.instance)),
    openWindow: async () => undefined,
    teardown: () => fake.stop(),
  };
});

describe('QR provider (Evolution API) adapter', () => {
  const fake = new FakeEvolutionServer({ apiKey: 'evo-key', hangMs: 8000 });
  let gateway: EvolutionGateway;
  beforeAll(async () => {
    gateway = new EvolutionGateway({ baseUrl: await fake.start(), ...options }, clock);
  });
  afterAll(() => fake.stop());

  it('creates the provider instance on the first connect, with the apikey header, then asks it for new codes', async () => {
    const box = qrBox();
    const target = { ...box, mode: 'live' as const };
    const first = await gateway.connect(target);
    const name = `carteiro-${box.instance.id}`;
    expect(first.providerRef).toBe(name);
    const calls = fake.requests.filter((r) => r.path.endsWith(name) || r.path === '/instance/create');
    expect(calls.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /instance/connect/${name}`, 'POST /instance/create']);
    expect(calls[1]?.body).toEqual({ instanceName: name, qrcode: true, integration: 'WHATSAPP-BAILEYS' });
    expect(calls.every((r) => r.headers.apikey === 'evo-key')).toBe(true);
    const second = await gateway.connect({ ...target, instance: { ...box.instance, providerRef: name } });
    expect(second.qrCode).toMatch(/^data:image\/png;base64,/);
    expect(fake.requests.filter((r) => r.path === '/instance/create')).toHaveLength(1);
  });

  it('checks numbers 50 per call, paced apart, and answers in the order asked', async () => {
    const box = qrBox();
    const name = `carteiro-${box.instance.id}`;
    await gateway.connect({ ...box, mode: 'live' });
    fake.scan(name, '5511977770000');
    const paced = new EvolutionGateway({ baseUrl: fake.url, ...options, numberCheckPauseMs: 200 }, clock);
    const phones = Array.from({ length: 120 }, (_, i) => `+55119${String(80_000_000 + i * 10 + 1)}`);
    const started = performance.now();
    const checks = await paced.checkNumbers({ ...box, instance: { ...box.instance, providerRef: name }, mode: 'live' }, phones);
    const elapsed = performance.now() - started;
    const calls = fake.requests.filter((r) => r.path === `/chat/whatsappNumbers/${name}`);
    expect(calls.map((c) => (c.body as { numbers: string[] }).numbers.length)).toEqual([50, 50, 20]);
    expect((calls[0]!.body as { numbers: string[] }).numbers[0]).toBe(phones[0]!.slice(1));
    expect(elapsed).toBeGreaterThanOrEqual(2 * 200 - 5);
    expect(checks.map((c) => c.phone)).toEqual(phones);
    expect(checks.filter((c) => c.hasChannel === false).map((c) => c.phone)).toEqual(phones.filter((p) => p.endsWith('0001')));
    expect(checks.every((c) => c.hasChannel !== null)).toBe(true);
  });

  it('sends each kind of content on its Evolution route with the published body', async () => {
    const box = qrBox();
    const name = `carteiro-${box.instance.id}`;
    await gateway.connect({ ...box, mode: 'live' });
    fake.scan(name, '5511977776666');
    const instance = { ...box.instance, providerRef: name, status: 'connected' as const };
    const send = (content: Parameters<typeof gateway.send>[0]['content']) =>
      gateway.send({ setor: box.setor, instance, mode: 'live', to: '+55 11 95555-1234', content, clientMessageId: 'c' });
    await send({ kind: 'media', mediaType: 'image', url: 'https://x/a.png', caption: 'foto' });
    await send({ kind: 'media', mediaType: 'audio', url: 'https://x/a.ogg', caption: 'ignored' });
    await send({ kind: 'poll', name: 'Dia?', options: ['Seg', 'Ter', 'Qua'], multipleAnswers: true });
    await send({ kind: 'event', name: 'Reunião', startTime: 1_800_000_000 });
    const sends = fake.requests.filter((r) => r.path.startsWith('/message/') && r.path.endsWith(name));
    expect(sends.map((r) => [r.path.split('/')[2], r.body])).toEqual([
      ['sendMedia', { number: '5511955551234', mediatype: 'image', mimetype: 'image/jpeg', media: 'https://x/a.png', caption: 'foto' }],
      ['sendWhatsAppAudio', { number: '5511955551234', audio: 'https://x/a.ogg' }],
      ['sendPoll', { number: '5511955551234', name: 'Dia?', selectableCount: 3, values: ['Seg', 'Ter', 'Qua'] }],
      ['sendText', { number: '5511955551234', text: expect.stringContaining('📅 Reunião') }],
    ]);
    expect(await gateway.sessionState({ setor: box.setor, instance, mode: 'live' })).toEqual({ status: 'connected', phoneNumber: '+5511977776666' });
  });

  it('sends an inline document as base64 through sendMedia', async () => {
    const box = qrBox();
    const name = `carteiro-${box.instance.id}`;
    await gateway.connect({ ...box, mode: 'live' });
    fake.scan(name, '5511977776666');
    const instance = { ...box.instance, providerRef: name, status: 'connected' as const };
    const pdf = new TextEncoder().encode('%PDF-1.4 contrato');
    const sent = await gateway.send({
      setor: box.setor,
      instance,
      mode: 'live',
      to: '+55 11 95555-1234',
      content: { kind: 'document', filename: 'contrato.pdf', mimeType: 'application/pdf', data: pdf, caption: 'Contrato' },
      clientMessageId: 'doc',
    });
    expect(sent).toMatchObject({ ok: true });
    const request = fake.requests.find((r) => r.path === `/message/sendMedia/${name}`)!;
    expect(request.body).toEqual({
      number: '5511955551234',
      mediatype: 'document',
      mimetype: 'application/pdf',
      media: Buffer.from(pdf).toString('base64'),
      fileName: 'contrato.pdf',
      caption: 'Contrato',
    });
  });

  it('edits, reacts to and deletes a sent message by its key, with the JID the send answered', async () => {
    const box = qrBox();
    const name = `carteiro-${box.instance.id}`;
    await gateway.connect({ ...box, mode: 'live' });
    fake.scan(name, '5511977776666');
    const target = { setor: box.setor, instance: { ...box.instance, providerRef: name, status: 'connected' as const }, mode: 'live' as const };
    // Area code 31: WhatsApp's JID has no ninth digit, so it cannot be rebuilt from the number.
    const to = '+55 31 98888-7777';
    const sent = await gateway.send({ ...target, to, content: { kind: 'text', text: 'Oi' }, clientMessageId: 'c' });
    if (!sent.ok) throw new Error('send failed');
    expect(sent.providerChatId).toBe('553188887777@s.whatsapp.net');
    const ref = { to, providerMessageId: sent.providerMessageId, providerChatId: sent.providerChatId };
    const key = { remoteJid: '553188887777@s.whatsapp.net', fromMe: true, id: sent.providerMessageId };
    expect((await gateway.editMessage(target, { ...ref, text: 'Olá' })).ok).toBe(true);
    expect((await gateway.react(target, { ...ref, emoji: '👍' })).ok).toBe(true);
    expect((await gateway.deleteMessage(target, ref)).ok).toBe(true);
    const calls = fake.requests.filter((r) => r.path.endsWith(name) && (r.path.startsWith('/chat/') || r.path.includes('sendReaction')));
    expect(calls.map((r) => [r.method, r.path.split('/').slice(1, 3).join('/'), r.body])).toEqual([
      ['POST', 'chat/updateMessage', { number: '5531988887777', key, text: 'Olá' }],
      ['POST', 'message/sendReaction', { key, reaction: '👍' }],
      ['DELETE', 'chat/deleteMessageForEveryone', key],
    ]);
    expect(fake.messages.get(sent.providerMessageId)).toMatchObject({ text: 'Olá', edited: true, reaction: '👍', revoked: true });
    // Deleted: the provider no longer finds it.
    expect(await gateway.react(target, { ...ref, emoji: '❤️' })).toMatchObject({ ok: false, code: 'UNKNOWN', providerFailure: false });
  });

  it('sends buttons and lists natively when configured to', async () => {
    const native = new EvolutionGateway({ baseUrl: fake.url, ...options, nativeInteractive: true }, clock);
    const box = qrBox();
    const name = `carteiro-${box.instance.id}`;
    await native.connect({ ...box, mode: 'live' });
    fake.scan(name);
    expect(native.capabilities(box.setor, 'live').interactive).toBe(true);
    const result = await native.send({
      ...box,
      instance: { ...box.instance, providerRef: name },
      mode: 'live',
      to: '+5511955551234',
      content: { kind: 'interactive', interactiveType: 'list', bodyText: 'Menu', sections: [{ title: 'S', rows: [{ id: 'r1', title: 'Um' }] }] },
      clientMessageId: 'c',
    });
    expect(result.ok).toBe(true);
    const list = fake.requests.find((r) => r.path === `/message/sendList/${name}`);
    expect(list?.body).toMatchObject({ title: 'Menu', buttonText: 'Opções', sections: [{ title: 'S', rows: [{ title: 'Um', rowId: 'r1', description: '' }] }] });
  });

  it('classifies a wrong api key as a sender authentication failure and an unreachable server as a network failure', async () => {
    const box = qrBox();
    const wrongKey = new EvolutionGateway({ baseUrl: fake.url, ...options, apiKey: 'wrong' }, clock);
    const request = { ...box, mode: 'live' as const, to: '+5511955551234', content: { kind: 'text' as const, text: 'x' }, clientMessageId: 'c' };
    expect(await wrongKey.send(request)).toMatchObject({ ok: false, code: 'SENDER_AUTH', providerFailure: false });
    const closed = new FakeHttpServer(() => ({ status: 200 }));
    const closedUrl = await closed.start();
    await closed.stop();
    const unreachable = new EvolutionGateway({ baseUrl: closedUrl, ...options }, clock);
    expect(await unreachable.send(request)).toMatchObject({ ok: false, code: 'TEMP_NETWORK', providerFailure: true });
    expect(await unreachable.probe(request)).toMatchObject({ responding: false, connected: false });
    await expect(unreachable.sessionState(request)).rejects.toMatchObject({ code: 'PROVIDER_ERROR' });
  });

  it('retries safe reads after a 5xx but never repeats a send', async () => {
    let reads = 0;
    let sends = 0;
    const flaky = new FakeHttpServer((request) => {
      if (request.path.startsWith('/instance/connectionState/')) {
        reads += 1;
        return reads === 1 ? { status: 503, body: { status: 503, error: 'Service Unavailable', response: { message: 'busy' } } } : { status: 200, body: { instance: { state: 'close' } } };
      }
      sends += 1;
      return { status: 500, body: { status: 500, error: 'Internal Server Error', response: { message: 'boom' } } };
    });
    const adapter = new EvolutionGateway({ baseUrl: await flaky.start(), ...options }, clock);
    const box = qrBox();
    try {
      expect(await adapter.sessionState({ ...box, mode: 'live' })).toEqual({ status: 'disconnected', phoneNumber: null });
      expect(reads).toBe(2);
      const result = await adapter.send({ ...box, mode: 'live', to: '+5511955551234', content: { kind: 'text', text: 'x' }, clientMessageId: 'c' });
      expect(result).toMatchObject({ ok: false, code: 'TEMP_SERVER_ERROR', providerFailure: true });
      expect(sends).toBe(1);
    } finally {
      await flaky.stop();
    }
  });
});

// Creating an instance renders a QR image: on a busy machine it can take longer than the contract's timeouts.
const slowOptions = { ...options, timeoutMs: 6000 };

describe('QR provider (Evolution API) proxies', () => {
  const fake = new FakeEvolutionServer({ apiKey: 'evo-key', deadProxyHosts: ['dead.proxy.test'] });
  const proxies: EvolutionProxy[] = [
    { protocol: 'http', host: 'proxy-a.test', port: '8080', username: 'user', password: 's3cret' },
    { protocol: 'socks5', host: 'proxy-b.test', port: '1080' },
  ];
  let url: string;
  beforeAll(async () => {
    url = await fake.start();
  });
  afterAll(() => fake.stop());

  it('creates a new provider instance with its proxy, picked by instance id, and reports it configured', async () => {
    const gateway = new EvolutionGateway({ baseUrl: url, ...slowOptions, proxies }, clock);
    const box = qrBox();
    const name = `carteiro-${box.instance.id}`;
    const qr = await gateway.connect({ ...box, mode: 'live' });
    expect(qr.proxyConfigured).toBe(true);
    const proxy = proxyForInstance(box.instance.id, proxies)!;
    const create = fake.requests.find((r) => r.path === '/instance/create' && (r.body as { instanceName?: string }).instanceName === name);
    expect(create?.body).toEqual({
      instanceName: name,
      qrcode: true,
      integration: 'WHATSAPP-BAILEYS',
      proxyHost: proxy.host,
      proxyPort: proxy.port,
      proxyProtocol: proxy.protocol,
      ...(proxy.username ? { proxyUsername: proxy.username, proxyPassword: proxy.password } : {}),
    });
    expect(fake.instances.get(name)?.proxy).toMatchObject({ enabled: true, host: proxy.host, port: proxy.port, protocol: proxy.protocol });
  });

  it('sets the proxy of a provider instance created without one before asking for its code, once', async () => {
    const direct = new EvolutionGateway({ baseUrl: url, ...slowOptions }, clock);
    const box = qrBox();
    const name = `carteiro-${box.instance.id}`;
    const first = await direct.connect({ ...box, mode: 'live' });
    expect(first.proxyConfigured).toBeUndefined();
    expect(fake.instances.get(name)?.proxy).toBeNull();

    const gateway = new EvolutionGateway({ baseUrl: url, ...slowOptions, proxies }, clock);
    const instance = { ...box.instance, providerRef: name };
    const before = fake.requests.length;
    const second = await gateway.connect({ ...box, instance, mode: 'live' });
    expect(second.proxyConfigured).toBe(true);
    const proxy = proxyForInstance(box.instance.id, proxies)!;
    const calls = fake.requests.slice(before);
    expect(calls.map((r) => `${r.method} ${r.path}`)).toEqual([`POST /proxy/set/${name}`, `GET /instance/connect/${name}`]);
    expect(calls[0]?.body).toEqual({ enabled: true, ...proxy });
    expect(fake.instances.get(name)?.proxy).toMatchObject({ host: proxy.host, port: proxy.port });

    const third = await gateway.connect({ ...box, instance: { ...instance, proxyConfigured: true }, mode: 'live' });
    expect(third.proxyConfigured).toBeUndefined();
    expect(fake.requests.filter((r) => r.path === `/proxy/set/${name}`)).toHaveLength(1);
  });

  it('refuses to connect a number directly when the provider rejects its proxy', async () => {
    const gateway = new EvolutionGateway({ baseUrl: url, ...slowOptions, proxies: [{ protocol: 'http', host: 'dead.proxy.test', port: '3128' }] }, clock);
    const box = qrBox();
    await expect(gateway.connect({ ...box, mode: 'live' })).rejects.toMatchObject({ code: 'PROVIDER_ERROR', message: expect.stringContaining('Invalid proxy') });
    expect(fake.instances.has(`carteiro-${box.instance.id}`)).toBe(false);
  });
});

describe('QR provider (Evolution API) resend after a crash', () => {
  const fake = new FakeEvolutionServer({ apiKey: 'evo-key', hangMs: 12000 });
  let gateway: EvolutionGateway;
  beforeAll(async () => {
    gateway = new EvolutionGateway({ baseUrl: await fake.start(), ...slowOptions }, clock);
  });
  afterAll(() => fake.stop());

  async function connected() {
    const box = qrBox();
    const name = `carteiro-${box.instance.id}`;
    await gateway.connect({ ...box, mode: 'live' });
    fake.scan(name, '5511977776666');
    return { name, target: { setor: box.setor, instance: { ...box.instance, providerRef: name, status: 'connected' as const }, mode: 'live' as const } };
  }
  const sendsTo = (name: string, digits: string) => fake.requests.filter((r) => r.path === `/message/sendText/${name}` && (r.body as { number?: string }).number === digits);

  it('finds a message that reached the provider before the attempt died and answers it instead of sending it again', async () => {
    const { name, target } = await connected();
    const since = new Date(Date.now() - 1000);
    // Area code 31: WhatsApp knows the chat without the ninth digit. Ending 0003: the provider takes the message but answers too late.
    const to = '+55 31 98888-0003';
    const lost = await gateway.send({ ...target, to, content: { kind: 'text', text: 'Oi de novo' }, clientMessageId: 'm-1' });
    expect(lost).toMatchObject({ ok: false, code: 'TEMP_TIMEOUT' });
    const [stored] = [...fake.messages.values()].filter((m) => m.instance === name);

    const resent = await gateway.send({ ...target, to, content: { kind: 'text', text: 'Oi de novo' }, clientMessageId: 'm-1', earlierAttemptSince: since });
    expect(resent).toMatchObject({ ok: true, providerMessageId: stored!.id, providerChatId: '553188880003@s.whatsapp.net' });
    expect(sendsTo(name, '5531988880003')).toHaveLength(1);
    const lookup = fake.requests.find((r) => r.path === `/chat/findMessages/${name}`);
    expect(lookup?.body).toMatchObject({ where: { key: { remoteJid: '5531988880003@s.whatsapp.net', fromMe: true }, messageTimestamp: { gte: expect.any(String), lte: expect.any(String) } } });
  });

  it('sends when no earlier attempt reached the provider (another text to the chat does not count)', async () => {
    const { name, target } = await connected();
    const to = '+55 11 95555-1234';
    expect((await gateway.send({ ...target, to, content: { kind: 'text', text: 'Primeira' }, clientMessageId: 'm-2' })).ok).toBe(true);
    const resent = await gateway.send({ ...target, to, content: { kind: 'text', text: 'Segunda' }, clientMessageId: 'm-3', earlierAttemptSince: new Date(Date.now() - 1000) });
    expect(resent.ok).toBe(true);
    expect(sendsTo(name, '5511955551234')).toHaveLength(2);
    const media = { kind: 'media' as const, mediaType: 'image' as const, url: 'https://x/a.png', caption: 'foto' };
    const firstMedia = await gateway.send({ ...target, to, content: media, clientMessageId: 'm-4' });
    const againMedia = await gateway.send({ ...target, to, content: media, clientMessageId: 'm-4', earlierAttemptSince: new Date(Date.now() - 1000) });
    expect(firstMedia.ok && againMedia.ok && againMedia.providerMessageId === firstMedia.providerMessageId).toBe(true);
    expect(fake.requests.filter((r) => r.path === `/message/sendMedia/${name}`)).toHaveLength(1);
  });

  it('does not send when the lookup itself fails: a temporary failure, retried later', async () => {
    let sends = 0;
    const broken = new FakeHttpServer((request) => {
      if (request.path.startsWith('/chat/findMessages/')) return { status: 500, body: { status: 500, error: 'Internal Server Error', response: { message: 'db down' } } };
      sends += 1;
      return { status: 201, body: { key: { id: 'X', remoteJid: '5511955551234@s.whatsapp.net', fromMe: true }, messageTimestamp: 1 } };
    });
    const adapter = new EvolutionGateway({ baseUrl: await broken.start(), ...slowOptions }, clock);
    const box = qrBox();
    try {
      const result = await adapter.send({ ...box, mode: 'live', to: '+5511955551234', content: { kind: 'text', text: 'x' }, clientMessageId: 'c', earlierAttemptSince: new Date() });
      expect(result).toMatchObject({ ok: false, code: 'TEMP_SERVER_ERROR', providerFailure: true });
      expect(sends).toBe(0);
    } finally {
      await broken.stop();
    }
  });
});
