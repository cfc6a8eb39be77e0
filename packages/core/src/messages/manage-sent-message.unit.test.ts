import { describe, expect, it } from '@jest/globals';
import { MessagingWorld } from '../testing/messaging-world.js';
import { ManageSentMessage, isEmoji } from './manage-sent-message.js';
import { ReceiveInboundMessage } from './receive-inbound-message.js';

const code = (c: string) => expect.objectContaining({ code: c });
const PHONE = '+5511987654321';

async function sent(channelType: 'qr' | 'official' = 'qr') {
  const world = new MessagingWorld();
  const company = await world.company();
  const box = await world.box(company, { channelType });
  if (channelType === 'official') await world.repos.conversationWindows.recordInbound(box.id, PHONE, world.clock.now());
  const outcome = await world.sendMessage.send({ companyId: company.id, keyMode: 'live', phone: PHONE, content: { type: 'text', text: 'Oi' } });
  return { world, company, box, outcome, manage: new ManageSentMessage(world.uow, world.clock) };
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
  });

  it('edits and deletes only messages of QR boxes, and only the company own messages', async () => {
    const { world, company, outcome, manage } = await sent('official');
    await expect(manage.edit(company.id, outcome.messageId, 'x')).rejects.toThrow(code('UNPROCESSABLE'));
    await expect(manage.delete(company.id, outcome.messageId)).rejects.toThrow(code('UNPROCESSABLE'));
    const other = await world.company();
    await expect(manage.delete(other.id, outcome.messageId)).rejects.toThrow(code('NOT_FOUND'));
    await expect(manage.react(other.id, outcome.messageId, '👍')).rejects.toThrow(code('NOT_FOUND'));
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
  });

  it('sets, replaces and removes (empty emoji) the reaction', async () => {
    const { company, outcome, manage } = await sent();
    expect((await manage.react(company.id, outcome.messageId, '👍')).reaction).toBe('👍');
    expect((await manage.react(company.id, outcome.messageId, '❤️')).reaction).toBe('❤️');
    expect((await manage.react(company.id, outcome.messageId, '')).reaction).toBeNull();
    await expect(manage.react(company.id, outcome.messageId, 'ok')).rejects.toThrow(code('VALIDATION_ERROR'));
    await expect(manage.react(company.id, outcome.messageId, 5)).rejects.toThrow(code('VALIDATION_ERROR'));
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

    // The window is open: free text to the official box is accepted now.
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
