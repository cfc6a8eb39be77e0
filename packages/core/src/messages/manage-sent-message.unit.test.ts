import { describe, expect, it } from '@jest/globals';
import { MessagingWorld } from '../testing/messaging-world.js';
import { ManageSentMessage, isEmoji } from './manage-sent-message.js';
import type { MessageContent } from './message-content.js';
import { ReceiveInboundMessage } from './receive-inbound-message.js';

const code = (c: string) => expect.objectContaining({ code: c });
const PHONE = '+5511987654321';

async function sent(channelType: 'qr' | 'official' = 'qr', options: { keyMode?: 'live' | 'test'; content?: MessageContent } = {}) {
  const world = new MessagingWorld();
  const company = await world.company();
  const box = await world.box(company, { channelType });
  if (channelType === 'official') await world.repos.conversationWindows.recordInbound(box.id, PHONE, world.clock.now());
  const outcome = await world.sendMessage.send({
    companyId: company.id,
    keyMode: options.keyMode ?? 'live',
    phone: PHONE,
    content: options.content ?? { type: 'text', text: 'Oi' },
  });
  const manage = new ManageSentMessage(world.uow, world.gateway, world.senderFailures, world.clock);
  const record = async () => (await world.repos.messages.findById(company.id, outcome.messageId))!;
  return { world, company, box, outcome, manage, record };
}

describe('ManageSentMessage', () => {
  it('edits the text within about 15 minutes, then refuses with 422', async () => {
    const { world, company, outcome, manage } = await sent();
    world.clock.advance(14 * 60 * 1000);
    const edited = await manage.edit(company.id, outcome.messageId, 'Olá');
    expect(edited.content).toEqual({ type: 'text', text: 'Olá' });
    expect(edited.parts[0]?.content).toEqual({ kind: 'text', text: 'Olá' });
    expect(edited.editedAt).toEqual(world.clock.now());
    world.clock.advance(2 * 60 * 1000);
    await expect(manage.edit(company.id, outcome.messageId, 'Tarde')).rejects.toThrow(code('UNPROCESSABLE'));
    await expect(manage.edit(company.id, outcome.messageId, '')).rejects.toThrow(code('VALIDATION_ERROR'));
    expect(world.gateway.operations).toHaveLength(1);
  });

  it('tells the channel to edit, with the box, the key mode of the send and the provider id of the message', async () => {
    const { world, company, box, outcome, manage, record } = await sent('qr', { keyMode: 'test' });
    const before = await record();
    await manage.edit(company.id, outcome.messageId, 'Olá');
    expect(world.gateway.operations).toEqual([
      expect.objectContaining({ operation: 'edit', setorId: box.id, mode: 'test', to: PHONE, providerMessageId: before.providerMessageId, text: 'Olá' }),
    ]);
  });

  it('edits the caption part of a text sent before its media, and deletes both channel messages', async () => {
    const content: MessageContent = { type: 'media', text: 'Veja', media: { mediaType: 'image', url: 'https://cdn.test/a.png', delivery: 'after_text' } };
    const { world, company, outcome, manage, record } = await sent('qr', { content });
    const [textPart, mediaPart] = (await record()).parts;
    const edited = await manage.edit(company.id, outcome.messageId, 'Veja só');
    expect(edited.parts.map((p) => p.content)).toEqual([{ kind: 'text', text: 'Veja só' }, mediaPart?.content]);
    await manage.delete(company.id, outcome.messageId);
    expect(world.gateway.operations.map((o) => [o.operation, o.providerMessageId])).toEqual([
      ['edit', textPart?.providerMessageId],
      ['delete', textPart?.providerMessageId],
      ['delete', mediaPart?.providerMessageId],
    ]);
  });

  it('edits and deletes only messages of QR boxes (without calling the channel), and only the company own messages', async () => {
    const { world, company, outcome, manage } = await sent('official');
    await expect(manage.edit(company.id, outcome.messageId, 'x')).rejects.toThrow(code('UNPROCESSABLE'));
    await expect(manage.delete(company.id, outcome.messageId)).rejects.toThrow(code('UNPROCESSABLE'));
    expect(world.gateway.operations).toEqual([]);
    const other = await world.company();
    await expect(manage.delete(other.id, outcome.messageId)).rejects.toThrow(code('NOT_FOUND'));
    await expect(manage.react(other.id, outcome.messageId, '👍')).rejects.toThrow(code('NOT_FOUND'));
  });

  it('reacts to messages of official boxes through the channel', async () => {
    const { world, company, outcome, manage } = await sent('official');
    expect((await manage.react(company.id, outcome.messageId, '👍')).reaction).toBe('👍');
    expect(world.gateway.operations).toEqual([expect.objectContaining({ operation: 'reaction', emoji: '👍' })]);
  });

  it('soft-deletes without touching credits, idempotently; a deleted message cannot be edited or reacted to', async () => {
    const { world, company, outcome, manage } = await sent();
    const balanceBefore = (await world.repos.companies.findById(company.id))?.avulsoBalance;
    const deleted = await manage.delete(company.id, outcome.messageId);
    expect(deleted.deletedAt).toEqual(world.clock.now());
    expect((await manage.delete(company.id, outcome.messageId)).deletedAt).toEqual(deleted.deletedAt);
    expect((await world.repos.companies.findById(company.id))?.avulsoBalance).toBe(balanceBefore);
    await expect(manage.edit(company.id, outcome.messageId, 'x')).rejects.toThrow(code('CONFLICT'));
    await expect(manage.react(company.id, outcome.messageId, '👍')).rejects.toThrow(code('CONFLICT'));
    // The repeated delete and the refused calls never reached the channel.
    expect(world.gateway.operations.map((o) => o.operation)).toEqual(['delete']);
  });

  it('sets, replaces and removes (empty emoji) the reaction at the channel and on the record', async () => {
    const { world, company, outcome, manage } = await sent();
    expect((await manage.react(company.id, outcome.messageId, '👍')).reaction).toBe('👍');
    expect((await manage.react(company.id, outcome.messageId, '❤️')).reaction).toBe('❤️');
    expect((await manage.react(company.id, outcome.messageId, '')).reaction).toBeNull();
    await expect(manage.react(company.id, outcome.messageId, 'ok')).rejects.toThrow(code('VALIDATION_ERROR'));
    await expect(manage.react(company.id, outcome.messageId, 5)).rejects.toThrow(code('VALIDATION_ERROR'));
    expect(world.gateway.operations.map((o) => [o.operation, o.emoji])).toEqual([
      ['reaction', '👍'],
      ['reaction', '❤️'],
      ['reaction', ''],
    ]);
  });

  it('changes nothing when the channel fails: 502 for a provider failure, 422 for a refusal', async () => {
    const { world, company, outcome, manage, record } = await sent();
    world.gateway.failOperationsFor(PHONE, { code: 'TEMP_SERVER_ERROR', providerFailure: true });
    await expect(manage.react(company.id, outcome.messageId, '👍')).rejects.toThrow(
      expect.objectContaining({ code: 'PROVIDER_ERROR', details: expect.objectContaining({ message_id: outcome.messageId, error_code: 'TEMP_SERVER_ERROR' }) }),
    );
    await expect(manage.edit(company.id, outcome.messageId, 'Olá')).rejects.toThrow(code('PROVIDER_ERROR'));
    world.gateway.failOperationsFor(PHONE, { code: 'UNKNOWN' });
    await expect(manage.delete(company.id, outcome.messageId)).rejects.toThrow(code('UNPROCESSABLE'));
    expect(await record()).toMatchObject({ reaction: null, editedAt: null, deletedAt: null, content: { type: 'text', text: 'Oi' } });
  });

  it('answers WINDOW_EXPIRED for an official reaction outside the 24-hour window', async () => {
    const { world, company, outcome, manage } = await sent('official');
    world.gateway.failOperationsFor(PHONE, { code: 'OFFICIAL_WINDOW_EXPIRED' });
    await expect(manage.react(company.id, outcome.messageId, '👍')).rejects.toThrow(code('WINDOW_EXPIRED'));
  });

  it('disconnects the box when the channel reports a sender failure, and then refuses without calling it', async () => {
    const { world, company, box, outcome, manage } = await sent();
    world.gateway.failOperationsFor(PHONE, { code: 'SENDER_BANNED' });
    await expect(manage.react(company.id, outcome.messageId, '👍')).rejects.toThrow(code('UNPROCESSABLE'));
    expect((await world.repos.channelInstances.findBySetor(box.id))?.status).toBe('disconnected');
    await expect(manage.edit(company.id, outcome.messageId, 'Olá')).rejects.toThrow(
      expect.objectContaining({ code: 'UNPROCESSABLE', details: expect.objectContaining({ error_code: 'SENDER_DISCONNECTED' }) }),
    );
    expect(world.gateway.operations).toHaveLength(1);
  });

  it('recognises emojis', () => {
    for (const e of ['👍', '❤️', '👍🏽', '👨‍👩‍👧', '🇧🇷', '1️⃣']) expect(isEmoji(e)).toBe(true);
    for (const e of ['a', 'ok 👍', '12']) expect(isEmoji(e)).toBe(false);
  });
});

describe('ReceiveInboundMessage', () => {
  it('creates the contact and conversation, opens the window and records message.received', async () => {
    const world = new MessagingWorld();
    const company = await world.company();
    const official = await world.box(company, { channelType: 'official' });
    const receive = new ReceiveInboundMessage(world.uow, world.clock, world.ids);
    const result = await receive.execute({ setorId: official.id, from: '55 11 98765-4321', text: 'Oi, quero saber mais' });
    expect(result).toMatchObject({ from: PHONE, contactCreated: true, conversationCreated: true, companyId: company.id });
    expect(world.events().map((e) => e.event)).toEqual(['contact.created', 'conversation.created', 'message.received']);
    expect(await world.repos.conversationWindows.lastInbound(official.id, PHONE)).toEqual(world.clock.now());
    const again = await receive.execute({ setorId: official.id, from: '+551187654321', text: 'Oi de novo' });
    expect(again).toMatchObject({ contactId: result.contactId, conversationId: result.conversationId, contactCreated: false, conversationCreated: false });

    // The window is open: free text to the official setor is accepted now.
    const outcome = await world.sendMessage.send({ companyId: company.id, keyMode: 'live', phone: PHONE, content: { type: 'text', text: 'Claro!' } });
    expect(outcome.conversationId).toBe(result.conversationId);
  });

  it('answers 404 for an unknown box and INVALID_NUMBER for a bad number', async () => {
    const world = new MessagingWorld();
    const company = await world.company();
    const box = await world.box(company);
    const receive = new ReceiveInboundMessage(world.uow, world.clock, world.ids);
    await expect(receive.execute({ setorId: world.ids.newId(), from: PHONE, text: 'x' })).rejects.toThrow(code('NOT_FOUND'));
    await expect(receive.execute({ setorId: box.id, from: 'abc', text: 'x' })).rejects.toThrow(code('INVALID_NUMBER'));
    await expect(receive.execute({ setorId: box.id, from: PHONE, text: '' })).rejects.toThrow(code('VALIDATION_ERROR'));
  });
});
