import { describe, expect, it } from '@jest/globals';
import { ManageSentMessage, ReceiveInboundMessage } from '../messages/index.js';
import { MessagingWorld } from '../testing/messaging-world.js';
import { RecordReceipt } from './record-receipt.js';

const PHONE = '+5511987654321';

describe('receipts of single sends, and what the message routes do with them', () => {
  it('a read send can still be edited, reacted to and deleted; a contact message is no send of the API (404)', async () => {
    const world = new MessagingWorld();
    const company = await world.company();
    const box = await world.box(company);
    const sent = await world.sendMessage.send({ companyId: company.id, keyMode: 'live', phone: PHONE, content: { type: 'text', text: 'Oi' } });
    const stored = (await world.repos.messages.findById(company.id, sent.messageId))!;
    const receipts = new RecordReceipt(world.uow, world.clock, world.ids);
    expect((await receipts.execute({ providerMessageId: stored.providerMessageId!, setorId: box.id }, 'read')).emitted).toEqual(['delivered', 'read']);
    const manage = new ManageSentMessage(world.uow, world.gateway, world.senderFailures, world.clock);
    expect((await manage.edit(company.id, sent.messageId, 'Olá')).status).toBe('read');
    expect((await manage.react(company.id, sent.messageId, '👍')).reaction).toBe('👍');
    expect((await manage.delete(company.id, sent.messageId)).deletedAt).toEqual(world.clock.now());

    const inbound = await new ReceiveInboundMessage(world.uow, world.clock, world.ids).execute({ setorId: box.id, from: PHONE, text: 'Oi!' });
    await expect(manage.edit(company.id, inbound.messageId, 'x')).rejects.toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
    await expect(manage.delete(company.id, inbound.messageId)).rejects.toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
  });
});
