import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createChannelInstance, createSetor, type ChannelInstance, type Setor } from '@carteiro/core';
import { describeChannelGatewayContract } from '@carteiro/core/testing';
import { FakeCloudApiServer } from '../testing/fake-cloud-api-server.js';
import { FakeHttpServer } from '../testing/fake-server.js';
import { CloudApiGateway } from './cloud-api-gateway.js';

const clock = { now: () => new Date() };
const options = { version: 'v21.0', timeoutMs: 1500, probeTimeoutMs: 1500, retries: 1, retryBackoffMs: () => 10 };
let boxes = 0;
function officialBox(fake: FakeCloudApiServer, token = 'token-ok'): { setor: Setor; instance: ChannelInstance } {
  boxes += 1;
  const id = `00000000-0000-4000-8000-${Date.now().toString().slice(-6)}${boxes.toString().padStart(6, '0')}`;
  const phoneNumberId = `10${boxes}${Date.now() % 100000}`;
  fake.addNumber(phoneNumberId, 'token-ok');
  const setor = createSetor(id, 'company-1', new Date(), {
    nome: `Oficial ${boxes}`,
    channelType: 'official',
    official: { phoneNumberId, accessToken: token, wabaId: 'waba-1' },
  });
  return { setor, instance: createChannelInstance(id, setor, new Date()) };
}

describeChannelGatewayContract('official (Cloud API) against a fake server', { boxTypes: ['official'], idempotentSends: false }, async () => {
  const fake = new FakeCloudApiServer({ hangMs: 4000 });
  const url = await fake.start();
  return {
    gateway: new CloudApiGateway({ baseUrl: url, ...options }, clock),
    now: () => new Date(),
    officialBox: async () => officialBox(fake),
    scan: async () => undefined,
    openWindow: async (box, phone) => fake.openWindow(box.setor.official!.phoneNumberId, phone),
    teardown: () => fake.stop(),
  };
});

describe('official (Cloud API) adapter', () => {
  const fake = new FakeCloudApiServer({ hangMs: 4000 });
  let gateway: CloudApiGateway;
  beforeAll(async () => {
    gateway = new CloudApiGateway({ baseUrl: await fake.start(), ...options }, clock);
  });
  afterAll(() => fake.stop());

  it('posts messages to /{version}/{phone_number_id}/messages with the bearer token and the Cloud API body', async () => {
    const box = officialBox(fake);
    const pnid = box.setor.official!.phoneNumberId;
    fake.openWindow(pnid, '5511955551234');
    const send = (content: Parameters<typeof gateway.send>[0]['content']) =>
      gateway.send({ ...box, mode: 'live', to: '+5511955551234', content, clientMessageId: 'c' });
    const template = await send({ kind: 'template', name: 'pedido', language: 'pt_BR', components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ana' }] }] });
    expect(template).toMatchObject({ ok: true, providerMessageId: expect.stringMatching(/^wamid\./) });
    await send({ kind: 'media', mediaType: 'document', url: 'https://x/a.pdf', caption: 'Contrato', filename: 'a.pdf' });
    await send({ kind: 'interactive', interactiveType: 'button', bodyText: 'Confirma?', buttons: [{ id: 'sim', title: 'Sim' }] });
    await send({ kind: 'poll', name: 'Dia?', options: ['Seg', 'Ter'], multipleAnswers: false });
    const posts = fake.requests.filter((r) => r.method === 'POST' && r.path === `/v21.0/${pnid}/messages`);
    expect(posts.every((r) => r.headers.authorization === 'Bearer token-ok')).toBe(true);
    expect(posts.map((r) => r.body)).toEqual([
      {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: '5511955551234',
        type: 'template',
        template: { name: 'pedido', language: { code: 'pt_BR' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ana' }] }] },
      },
      expect.objectContaining({ type: 'document', document: { link: 'https://x/a.pdf', caption: 'Contrato', filename: 'a.pdf' } }),
      expect.objectContaining({
        type: 'interactive',
        interactive: { type: 'button', body: { text: 'Confirma?' }, action: { buttons: [{ type: 'reply', reply: { id: 'sim', title: 'Sim' } }] } },
      }),
      expect.objectContaining({ type: 'text', text: { preview_url: false, body: 'Dia?\n\n1. Seg\n2. Ter' } }),
    ]);
  });

  it('uploads an inline document to /{phone_number_id}/media (multipart) and sends it by its media id', async () => {
    const box = officialBox(fake);
    const pnid = box.setor.official!.phoneNumberId;
    fake.openWindow(pnid, '5511955551234');
    const pdf = new TextEncoder().encode('%PDF-1.4 contrato assinado');
    const sent = await gateway.send({
      ...box,
      mode: 'live',
      to: '+5511955551234',
      content: { kind: 'document', filename: 'contrato.pdf', mimeType: 'application/pdf', data: pdf, caption: 'Contrato' },
      clientMessageId: 'doc',
    });
    expect(sent).toMatchObject({ ok: true });
    const upload = fake.requests.find((r) => r.method === 'POST' && r.path === `/v21.0/${pnid}/media`)!;
    expect(upload.headers.authorization).toBe('Bearer token-ok');
    expect(String(upload.headers['content-type'])).toMatch(/^multipart\/form-data; boundary=/);
    expect(String(upload.body)).toContain('%PDF-1.4 contrato assinado');
    const [mediaId] = [...fake.media.keys()];
    const message = fake.requests.filter((r) => r.method === 'POST' && r.path === `/v21.0/${pnid}/messages`).at(-1)!;
    expect(message.body).toMatchObject({ type: 'document', document: { id: mediaId, filename: 'contrato.pdf', caption: 'Contrato' } });
  });

  it('reacts with a reaction message and refuses edits and deletes without calling the Cloud API', async () => {
    const box = officialBox(fake);
    const pnid = box.setor.official!.phoneNumberId;
    fake.openWindow(pnid, '5511955551234');
    const target = { ...box, mode: 'live' as const };
    const sent = await gateway.send({ ...target, to: '+5511955551234', content: { kind: 'text', text: 'Oi' }, clientMessageId: 'c' });
    if (!sent.ok) throw new Error('send failed');
    const ref = { to: '+5511955551234', providerMessageId: sent.providerMessageId };
    const before = fake.requests.length;
    expect((await gateway.react(target, { ...ref, emoji: '👍' })).ok).toBe(true);
    expect((await gateway.react(target, { ...ref, emoji: '' })).ok).toBe(true);
    await expect(gateway.editMessage(target, { ...ref, text: 'x' })).rejects.toMatchObject({ code: 'UNPROCESSABLE' });
    await expect(gateway.deleteMessage(target, ref)).rejects.toMatchObject({ code: 'UNPROCESSABLE' });
    const calls = fake.requests.slice(before);
    expect(calls.map((r) => [r.method, r.path, r.headers.authorization, r.body])).toEqual([
      ['POST', `/v21.0/${pnid}/messages`, 'Bearer token-ok', { messaging_product: 'whatsapp', recipient_type: 'individual', to: '5511955551234', type: 'reaction', reaction: { message_id: sent.providerMessageId, emoji: '👍' } }],
      ['POST', `/v21.0/${pnid}/messages`, 'Bearer token-ok', expect.objectContaining({ type: 'reaction', reaction: { message_id: sent.providerMessageId, emoji: '' } })],
    ]);
    expect(await gateway.react(target, { ...ref, providerMessageId: 'wamid.unknown', emoji: '👍' })).toMatchObject({ ok: false, code: 'UNKNOWN', providerFailure: false });
  });

  it('reports a box with a bad token as disconnected and refuses to connect it', async () => {
    const box = officialBox(fake, 'token-wrong');
    expect(await gateway.sessionState({ ...box, mode: 'live' })).toEqual({ status: 'disconnected', phoneNumber: null });
    await expect(gateway.connect({ ...box, mode: 'live' })).rejects.toMatchObject({ code: 'UNPROCESSABLE' });
    const result = await gateway.send({ ...box, mode: 'live', to: '+5511955551234', content: { kind: 'text', text: 'x' }, clientMessageId: 'c' });
    expect(result).toMatchObject({ ok: false, code: 'SENDER_AUTH', providerFailure: false });
    expect(await gateway.probe({ ...box, mode: 'live' })).toMatchObject({ responding: true, connected: false });
  });

  it('classifies throughput limits, unknown errors and an unreachable API', async () => {
    const limited = new FakeHttpServer(() => ({
      status: 400,
      body: { error: { message: '(#130429) Rate limit hit', type: 'OAuthException', code: 130429, fbtrace_id: 'x' } },
    }));
    const limitedUrl = await limited.start();
    const adapter = new CloudApiGateway({ baseUrl: limitedUrl, ...options }, clock);
    const box = officialBox(fake);
    const request = { ...box, mode: 'live' as const, to: '+5511955551234', content: { kind: 'text' as const, text: 'x' }, clientMessageId: 'c' };
    try {
      expect(await adapter.send(request)).toMatchObject({ ok: false, code: 'TEMP_RATE_LIMIT', error: '(#130429) Rate limit hit' });
    } finally {
      await limited.stop();
    }
    const unreachable = new CloudApiGateway({ baseUrl: limitedUrl, ...options }, clock);
    expect(await unreachable.send(request)).toMatchObject({ ok: false, code: 'TEMP_NETWORK', providerFailure: true });
    expect(await unreachable.probe(request)).toMatchObject({ responding: false, connected: false });
  });

  it('refuses profile changes of official numbers and reads their profile', async () => {
    const box = officialBox(fake);
    await expect(gateway.updateProfile({ ...box, mode: 'live' }, { name: 'x' })).rejects.toMatchObject({ code: 'UNPROCESSABLE' });
    expect(await gateway.fetchProfile({ ...box, mode: 'live' })).toEqual({ name: 'Carteiro Loja', pictureUrl: 'https://pps.example.com/logo.jpg' });
  });
});
