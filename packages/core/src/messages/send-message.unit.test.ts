import { describe, expect, it } from '@jest/globals';
import { MessagingWorld } from '../testing/messaging-world.js';
import type { MessageContent } from './message-content.js';

const text = (t = 'Olá!'): MessageContent => ({ type: 'text', text: t });
const code = (c: string) => expect.objectContaining({ code: c });
const PHONE = '+5511987654321';

async function given(input: Parameters<MessagingWorld['company']>[0] = {}) {
  const world = new MessagingWorld();
  const company = await world.company(input);
  const box = await world.box(company);
  return { world, company, box };
}

describe('SendMessage.send', () => {
  it('sends a text, stores the record with contact and conversation, debits avulso and counts the day', async () => {
    const { world, company, box } = await given({ modality: 'avulso', avulsoBalance: 2 });
    const outcome = await world.sendMessage.send({ companyId: company.id, keyMode: 'live', phone: '55 (11) 98765-4321', content: text() });
    expect(outcome).toMatchObject({ phone: PHONE, status: 'sent', setorId: box.id });
    expect(world.gateway.sent.map((s) => [s.to, s.content])).toEqual([[PHONE, { kind: 'text', text: 'Olá!' }]]);
    const record = await world.repos.messages.findById(company.id, outcome.messageId);
    expect(record).toMatchObject({ status: 'sent', setorId: box.id, contactId: outcome.contactId, conversationId: outcome.conversationId, providerMessageId: 'fake-1' });
    expect((await world.repos.companies.findById(company.id))?.avulsoBalance).toBe(1);
    expect(await world.repos.usage.sentByCompany(company.id, '2026-01-15')).toBe(1);
    expect(await world.repos.usage.sentBySetor(box.id, '2026-01-15')).toBe(1);
    const [event] = world.events('message.sent');
    expect(event?.data).toMatchObject({ messageId: outcome.messageId, recipientPhone: PHONE, status: 'sent', actual_setor_id: box.id, error_code: null });
  });

  it('sends to an existing contact by client_id, which wins over phone, and 404s another company contact', async () => {
    const { world, company } = await given();
    const first = await world.sendMessage.send({ companyId: company.id, keyMode: 'live', phone: PHONE, content: text() });
    const again = await world.sendMessage.send({ companyId: company.id, keyMode: 'live', clientId: first.contactId, phone: '+5521999990000', content: text() });
    expect(again.phone).toBe(PHONE);
    expect(again.conversationId).toBe(first.conversationId);
    const other = await world.company();
    await world.box(other);
    await expect(world.sendMessage.send({ companyId: other.id, keyMode: 'live', clientId: first.contactId, content: text() })).rejects.toThrow(code('NOT_FOUND'));
  });

  it('answers INVALID_NUMBER for a bad phone and 400 without phone or client_id', async () => {
    const { world, company } = await given();
    await expect(world.sendMessage.send({ companyId: company.id, keyMode: 'live', phone: '12ab', content: text() })).rejects.toThrow(code('INVALID_NUMBER'));
    await expect(world.sendMessage.send({ companyId: company.id, keyMode: 'live', content: text() })).rejects.toThrow(code('BAD_REQUEST'));
    expect(world.gateway.sent).toHaveLength(0);
  });

  it('answers 402 BULK_DISABLED when the avulso balance is exhausted, 402 PLAN_EXPIRED when expired or inactive', async () => {
    const broke = await given({ modality: 'avulso', avulsoBalance: 0 });
    await expect(broke.world.sendMessage.send({ companyId: broke.company.id, keyMode: 'live', phone: PHONE, content: text() })).rejects.toThrow(code('BULK_DISABLED'));
    const expired = await given({ modality: 'avulso', avulsoBalance: 10, expiresAt: new Date('2026-01-01T00:00:00Z') });
    await expect(expired.world.sendMessage.send({ companyId: expired.company.id, keyMode: 'live', phone: PHONE, content: text() })).rejects.toThrow(code('PLAN_EXPIRED'));
    const inactive = await given({ modality: 'inativo' });
    await expect(inactive.world.sendMessage.send({ companyId: inactive.company.id, keyMode: 'live', phone: PHONE, content: text() })).rejects.toThrow(code('PLAN_EXPIRED'));
    expect(broke.world.gateway.sent.length + expired.world.gateway.sent.length + inactive.world.gateway.sent.length).toBe(0);
  });

  it('answers 403 when the daily limit is reached', async () => {
    const { world, company } = await given({ dailyLimit: 1 });
    await world.sendMessage.send({ companyId: company.id, keyMode: 'live', phone: PHONE, content: text() });
    await expect(world.sendMessage.send({ companyId: company.id, keyMode: 'live', phone: PHONE, content: text() })).rejects.toThrow(
      expect.objectContaining({ code: 'FORBIDDEN', message: 'Daily messages limit exceeded' }),
    );
  });

  it('never charges or counts for test keys, even on an exhausted or expired account, but still records events', async () => {
    const { world, company } = await given({ modality: 'avulso', avulsoBalance: 0, expiresAt: new Date('2026-01-01T00:00:00Z') });
    const outcome = await world.sendMessage.send({ companyId: company.id, keyMode: 'test', phone: PHONE, content: text() });
    expect(outcome.status).toBe('sent');
    expect(world.gateway.sent[0]?.mode).toBe('test');
    expect((await world.repos.companies.findById(company.id))?.avulsoBalance).toBe(0);
    expect(await world.repos.usage.sentByCompany(company.id, '2026-01-15')).toBe(0);
    expect(world.events('message.sent')).toHaveLength(1);
  });

  it('refunds and answers 502 PROVIDER_ERROR when the provider fails', async () => {
    const { world, company } = await given({ modality: 'avulso', avulsoBalance: 1 });
    world.gateway.failFor(PHONE, { code: 'TEMP_SERVER_ERROR', providerFailure: true });
    await expect(world.sendMessage.send({ companyId: company.id, keyMode: 'live', phone: PHONE, content: text() })).rejects.toThrow(
      expect.objectContaining({ code: 'PROVIDER_ERROR', details: expect.objectContaining({ error_code: 'TEMP_SERVER_ERROR' }) }),
    );
    expect((await world.repos.companies.findById(company.id))?.avulsoBalance).toBe(1);
    expect(await world.repos.usage.sentByCompany(company.id, '2026-01-15')).toBe(0);
    const [failed] = world.events('message.failed');
    expect(failed?.data).toMatchObject({ status: 'failed', error_code: 'TEMP_SERVER_ERROR', actual_setor_id: null });
    expect(world.events('message.sent')).toHaveLength(0);
  });

  it('refunds and answers 422 for a recipient failure; a sender failure disconnects the box', async () => {
    const { world, company, box } = await given({ modality: 'avulso', avulsoBalance: 1 });
    world.gateway.failFor(PHONE, { code: 'RECIP_NOT_WHATSAPP' });
    await expect(world.sendMessage.send({ companyId: company.id, keyMode: 'live', phone: PHONE, content: text() })).rejects.toThrow(code('UNPROCESSABLE'));
    expect((await world.repos.companies.findById(company.id))?.avulsoBalance).toBe(1);
    world.gateway.failFor(PHONE, { code: 'SENDER_BANNED' });
    await expect(world.sendMessage.send({ companyId: company.id, keyMode: 'live', phone: PHONE, content: text() })).rejects.toThrow(code('UNPROCESSABLE'));
    expect((await world.repos.channelInstances.findBySetor(box.id))?.status).toBe('disconnected');
    await expect(world.sendMessage.send({ companyId: company.id, keyMode: 'live', phone: PHONE, content: text() })).rejects.toThrow(code('NOT_FOUND'));
  });

  it('rotates across the numbers of a pool', async () => {
    const { world, company, box } = await given();
    const second = await world.box(company);
    const used = [];
    for (let i = 0; i < 4; i += 1) used.push((await world.sendMessage.send({ companyId: company.id, keyMode: 'live', phone: PHONE, selection: { multiNumber: true }, content: text() })).setorId);
    expect(used).toEqual([box.id, second.id, box.id, second.id]);
  });

  it('sends text then media as two channel messages for after_text', async () => {
    const { world, company } = await given();
    await world.sendMessage.send({
      companyId: company.id,
      keyMode: 'live',
      phone: PHONE,
      content: { type: 'media', text: 'Veja', media: { mediaType: 'image', url: 'https://cdn.test/a.png', delivery: 'after_text' } },
    });
    expect(world.gateway.sent.map((s) => s.content.kind)).toEqual(['text', 'media']);
    expect(world.gateway.sent.map((s) => s.clientMessageId.slice(-2))).toEqual([':0', ':1']);
  });

  it('refuses free text outside the 24-hour window of an official box with 422 WINDOW_EXPIRED, and sends it inside', async () => {
    const world = new MessagingWorld();
    const company = await world.company();
    const official = await world.box(company, { channelType: 'official' });
    const send = () => world.sendMessage.send({ companyId: company.id, keyMode: 'live', phone: PHONE, selection: { setorId: official.id }, content: text() });
    await expect(send()).rejects.toThrow(code('WINDOW_EXPIRED'));
    await world.repos.conversationWindows.recordInbound(official.id, '+551187654321', world.clock.now());
    await expect(send()).resolves.toMatchObject({ status: 'sent' });
    world.clock.advance(24 * 3600 * 1000);
    await expect(send()).rejects.toThrow(code('WINDOW_EXPIRED'));
    const template: MessageContent = { type: 'template', template: { name: 'retorno', language: 'pt_BR', components: [] } };
    await expect(world.sendMessage.send({ companyId: company.id, keyMode: 'live', phone: PHONE, selection: { setorId: official.id }, content: template })).resolves.toMatchObject({ status: 'sent' });
  });

  it('keeps the balance at zero when more sends race than there are units', async () => {
    const { world, company } = await given({ modality: 'avulso', avulsoBalance: 3 });
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => world.sendMessage.send({ companyId: company.id, keyMode: 'live', phone: PHONE, content: text() })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect(results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.code)).toEqual(Array(7).fill('BULK_DISABLED'));
    expect((await world.repos.companies.findById(company.id))?.avulsoBalance).toBe(0);
  });
});

describe('SendMessage.sendFirstContact', () => {
  it('creates the contact with its name, the affinity and the tags, and reuses the affinity box later', async () => {
    const { world, company } = await given();
    const second = await world.box(company);
    const tag = { id: world.ids.newId(), companyId: company.id, name: 'lead', createdAt: world.clock.now() };
    await world.repos.tags.insert(tag);
    const first = await world.sendMessage.sendFirstContact({
      companyId: company.id,
      keyMode: 'live',
      phone: PHONE,
      name: 'Ana',
      tagIds: [tag.id],
      selection: { setorId: second.id },
      content: text(),
    });
    expect(first).toMatchObject({ setorId: second.id, affinityCreated: true, contactCreated: true });
    expect(await world.repos.contacts.findById(company.id, first.contactId)).toMatchObject({ name: 'Ana', phone: PHONE });
    expect(await world.repos.tags.tagIdsOfContact(first.contactId)).toEqual([tag.id]);
    expect(world.events('contact.created')).toHaveLength(1);
    expect(world.events('contact.tagged')[0]?.data).toEqual({ contactId: first.contactId, tagIds: [tag.id], source: 'first_contact', ruleId: null });

    const again = await world.sendMessage.sendFirstContact({ companyId: company.id, keyMode: 'live', phone: '+551187654321', name: 'Other', content: text() });
    expect(again).toMatchObject({ setorId: second.id, affinityCreated: false, contactCreated: false, contactId: first.contactId });
  });

  it('answers 404 for unknown or other-company tags before sending', async () => {
    const { world, company } = await given();
    await expect(world.sendMessage.sendFirstContact({ companyId: company.id, keyMode: 'live', phone: PHONE, tagIds: [world.ids.newId()], content: text() })).rejects.toThrow(code('NOT_FOUND'));
    expect(world.gateway.sent).toHaveLength(0);
  });

  it('allows only templates as the first contact of an official box (400 for free text or media)', async () => {
    const world = new MessagingWorld();
    const company = await world.company();
    const official = await world.box(company, { channelType: 'official' });
    const base = { companyId: company.id, keyMode: 'live' as const, phone: PHONE, selection: { setorId: official.id } };
    await expect(world.sendMessage.sendFirstContact({ ...base, content: text() })).rejects.toThrow(code('VALIDATION_ERROR'));
    await expect(
      world.sendMessage.sendFirstContact({ ...base, content: { type: 'media', media: { mediaType: 'image', url: 'https://cdn.test/a.png' } } }),
    ).rejects.toThrow(code('VALIDATION_ERROR'));
    const ok = await world.sendMessage.sendFirstContact({ ...base, content: { type: 'template', template: { name: 'ola', language: 'pt_BR', components: [] } } });
    expect(ok.affinityCreated).toBe(true);
    expect(world.gateway.sent.map((s) => s.content.kind)).toEqual(['template']);
  });

  it('refuses templates on QR boxes', async () => {
    const { world, company } = await given();
    await expect(
      world.sendMessage.sendFirstContact({ companyId: company.id, keyMode: 'live', phone: PHONE, content: { type: 'template', template: { name: 'ola', language: 'pt_BR', components: [] } } }),
    ).rejects.toThrow(code('VALIDATION_ERROR'));
  });
});
