import { describe, expect, it } from '@jest/globals';
import type { ChannelInstance } from '../../channel/index.js';
import { createContact } from '../../contacts/index.js';
import { newConversation, type MessageRecord } from '../../messages/index.js';
import { createSetor } from '../../setores/index.js';
import { CONTRACT_T0, type RepositoriesUnderTest } from '../../shared/testing/index.js';
import { contractCases } from '../../companies/testing/index.js';
import type { ChannelRepositories } from '../../channel/index.js';
import type { CompanyRepositories } from '../../companies/index.js';
import type { ContactRepositories } from '../../contacts/index.js';
import type { MessageRepositories } from '../../messages/index.js';
import type { ReceiptRepositories } from '../index.js';
import type { SetorRepositories } from '../../setores/index.js';

/** The areas this suite reads and writes. */
type Areas = ChannelRepositories & CompanyRepositories & ContactRepositories & MessageRepositories & ReceiptRepositories & SetorRepositories;

const at = (seconds: number) => new Date(CONTRACT_T0.getTime() + seconds * 1000);

/** The behaviour every implementation of the receipts area's repositories must show (in-memory fake and Kysely alike). */
export function describeReceiptRepositoriesContract(name: string, setup: () => Promise<RepositoriesUnderTest<Areas>>): void {
  describe(`receipt repositories contract: ${name}`, () => {
    const cases = contractCases('9', setup);
    const fresh = async () => {
      const sut = await cases();
      const { repos, ids, company } = sut;
      const setor = createSetor(ids.newId(), company.id, CONTRACT_T0, { nome: 'Vendas' });
      const official = createSetor(ids.newId(), company.id, CONTRACT_T0, {
        nome: 'Oficial',
        channelType: 'official',
        official: { phoneNumberId: `pn-${ids.newId()}`, accessToken: 't', wabaId: 'w' },
      });
      for (const s of [setor, official]) await repos.setores.insert(s);
      const contact = createContact(ids.newId(), company.id, '+5511987650001', 'Ana', CONTRACT_T0);
      await repos.contacts.insert(contact);
      const conversation = await repos.conversations.findOrCreate(newConversation(ids.newId(), company.id, setor.id, contact.id, CONTRACT_T0));
      const message = (extra: Partial<MessageRecord>): MessageRecord => ({
        id: ids.newId(),
        companyId: company.id,
        conversationId: conversation.id,
        setorId: setor.id,
        contactId: contact.id,
        phone: contact.phone,
        senderNumber: null,
        keyMode: 'live',
        content: { type: 'text', text: 'Oi' },
        parts: [],
        status: 'sent',
        providerMessageId: `wamid.${ids.newId()}`,
        errorCode: null,
        error: null,
        reaction: null,
        editedAt: null,
        deletedAt: null,
        sentAt: CONTRACT_T0,
        createdAt: CONTRACT_T0,
        updatedAt: CONTRACT_T0,
        direction: 'outbound',
        ...extra,
      });
      return { ...sut, setor, official, contact, conversation, message };
    };

    it('finds a sent message by provider id (on its setor) or by id, and writes its receipts and status', async () => {
      const { repos, setor, official, conversation, message } = await fresh();
      const sent = message({});
      await repos.messages.insert(sent);
      const target = await repos.messageReceipts.findForUpdate({ providerMessageId: sent.providerMessageId!, setorId: setor.id });
      expect(target).toEqual({
        kind: 'message',
        id: sent.id,
        companyId: sent.companyId,
        setorId: setor.id,
        campaignId: null,
        conversationId: conversation.id,
        ticketId: null,
        phone: sent.phone,
        providerMessageId: sent.providerMessageId,
        status: 'sent',
        deliveredAt: null,
        readAt: null,
      });
      expect(await repos.messageReceipts.findForUpdate({ providerMessageId: sent.providerMessageId! })).toMatchObject({ id: sent.id });
      expect(await repos.messageReceipts.findForUpdate({ providerMessageId: sent.providerMessageId!, setorId: official.id })).toBeNull();
      expect(await repos.messageReceipts.findForUpdate({ messageId: sent.id })).toMatchObject({ id: sent.id });
      await repos.messageReceipts.save({ ...target!, deliveredAt: at(1), readAt: at(2) });
      expect(await repos.messages.findById(sent.companyId, sent.id)).toMatchObject({ status: 'read', deliveredAt: at(1), readAt: at(2) });
      expect(await repos.messageReceipts.findForUpdate({ messageId: sent.id })).toMatchObject({ status: 'sent', deliveredAt: at(1), readAt: at(2) });
    });

    it('finds many at once in the order asked (a message named twice answered twice) and saves many', async () => {
      const { repos, setor, official, message } = await fresh();
      const first = message({});
      const second = message({ status: 'delivered', deliveredAt: at(1) } as Partial<MessageRecord>);
      for (const m of [first, second]) await repos.messages.insert(m);
      const found = await repos.messageReceipts.findManyForUpdate([
        { providerMessageId: second.providerMessageId!, setorId: setor.id },
        { providerMessageId: 'wamid.unknown' },
        { providerMessageId: first.providerMessageId! },
        { providerMessageId: first.providerMessageId!, setorId: official.id },
        { messageId: first.id },
        { providerMessageId: second.providerMessageId! },
      ]);
      expect(found.map((t) => t?.id ?? null)).toEqual([second.id, null, first.id, null, first.id, second.id]);
      expect(found[0]).toMatchObject({ kind: 'message', setorId: setor.id, status: 'sent', deliveredAt: at(1), readAt: null });
      expect(await repos.messageReceipts.findManyForUpdate([])).toEqual([]);
      await repos.messageReceipts.saveMany([
        { ...found[2]!, deliveredAt: at(3), readAt: null },
        { ...found[0]!, deliveredAt: at(1), readAt: at(4) },
      ]);
      await repos.messageReceipts.saveMany([]);
      expect(await repos.messages.findById(first.companyId, first.id)).toMatchObject({ status: 'delivered', deliveredAt: at(3), readAt: null });
      expect(await repos.messages.findById(second.companyId, second.id)).toMatchObject({ status: 'read', deliveredAt: at(1), readAt: at(4) });
    });

    it('never answers inbound messages, and reads failed and pending sends as such', async () => {
      const { repos, message } = await fresh();
      const inbound = message({ direction: 'inbound', status: 'received' });
      const failed = message({ status: 'failed' });
      const pending = message({ status: 'pending' });
      for (const m of [inbound, failed, pending]) await repos.messages.insert(m);
      expect(await repos.messageReceipts.findForUpdate({ providerMessageId: inbound.providerMessageId! })).toBeNull();
      expect(await repos.messageReceipts.findForUpdate({ messageId: inbound.id })).toBeNull();
      expect((await repos.messageReceipts.findForUpdate({ messageId: failed.id }))!.status).toBe('failed');
      expect((await repos.messageReceipts.findForUpdate({ messageId: pending.id }))!.status).toBe('pending');
      expect(await repos.messageReceipts.findForUpdate({ providerMessageId: 'wamid.unknown' })).toBeNull();
    });

    it('never answers a ticket note or activity by its id: they are never sent', async () => {
      const { repos, message } = await fresh();
      const note = message({ type: 'note', providerMessageId: null });
      const activity = message({ type: 'activity', providerMessageId: null });
      for (const m of [note, activity]) await repos.messages.insert(m);
      expect(await repos.messageReceipts.findForUpdate({ messageId: note.id })).toBeNull();
      expect(await repos.messageReceipts.findForUpdate({ messageId: activity.id })).toBeNull();
    });

    it('finds the setor of a QR-provider instance (by its carteiro- name or provider reference) and of an official number', async () => {
      const { repos, ids, company, setor, official } = await fresh();
      const instance: ChannelInstance = {
        id: ids.newId(),
        companyId: company.id,
        setorId: setor.id,
        status: 'connected',
        phoneNumber: '+5511900000001',
        providerRef: `evo-${ids.newId()}`,
        proxyConfigured: false,
        qrRequestedAt: null,
        connectedAt: CONTRACT_T0,
        disconnectedAt: null,
        profileName: null,
        profilePictureUrl: null,
        createdAt: CONTRACT_T0,
        updatedAt: CONTRACT_T0,
      };
      await repos.channelInstances.insert(instance);
      const expected = { setorId: setor.id, companyId: company.id };
      expect(await repos.providerAccounts.setorOfQrInstance(`carteiro-${instance.id}`)).toEqual(expected);
      expect(await repos.providerAccounts.setorOfQrInstance(instance.providerRef!)).toEqual(expected);
      expect(await repos.providerAccounts.setorOfQrInstance('carteiro-not-a-uuid')).toBeNull();
      expect(await repos.providerAccounts.setorOfOfficialNumber(official.official!.phoneNumberId)).toEqual({ setorId: official.id, companyId: company.id });
      expect(await repos.providerAccounts.setorOfOfficialNumber('unknown')).toBeNull();
    });
  });
}
