import { describe, expect, it } from '@jest/globals';
import { createContact } from '../../contacts/index.js';
import { createSetor } from '../../setores/index.js';
import { CONTRACT_T0, type RepositoriesUnderTest } from '../../shared/testing/index.js';
import { contractCases } from '../../companies/testing/index.js';
import type { CompanyRepositories } from '../../companies/index.js';
import type { ContactRepositories } from '../../contacts/index.js';
import type { SetorRepositories } from '../../setores/index.js';
import type { TagRepositories } from '../../tags/index.js';
import { FRESH_MESSAGE_FIELDS, newConversation, type MessageRecord, type MessageRepositories } from '../index.js';

/** The areas this suite reads and writes. */
type Areas = CompanyRepositories & ContactRepositories & MessageRepositories & SetorRepositories & TagRepositories;

const t0 = CONTRACT_T0;
const later = (ms: number) => new Date(t0.getTime() + ms);

/**
 * Conversations and message records, and what the contacts' repositories read and move of them:
 * the last inbound message in a search, the conversations and messages a merge moves.
 */
export function describeMessageRepositoriesContract(name: string, setup: () => Promise<RepositoriesUnderTest<Areas>>): void {
  describe(`message repositories contract: ${name}`, () => {
    const tenants = contractCases('a6', setup);
    const fresh = async () => {
      const { ids, company, other, ...sut } = await tenants();
      const setor = createSetor(ids.newId(), company.id, t0, { nome: 'Vendas' });
      await sut.repos.setores.insert(setor);
      /**
       * A new contact of the company with this phone, stored, and its conversation in the setor;
       * `inConversation()` gives a new message's id and its place in that conversation.
       */
      const talking = async (phone: string) => {
        const contact = createContact(ids.newId(), company.id, phone, null, t0);
        await sut.repos.contacts.insert(contact);
        const conversation = await sut.repos.conversations.findOrCreate(newConversation(ids.newId(), company.id, setor.id, contact.id, t0));
        const inConversation = () => ({ id: ids.newId(), companyId: company.id, conversationId: conversation.id, setorId: setor.id, contactId: contact.id, phone: contact.phone });
        return { contact, conversation, inConversation };
      };
      return { ...sut, ids, company, other, setor, talking };
    };

    it('searches by phone form, q over name, email and digits, assistant, tags and updated_since, scoped by company', async () => {
      const { repos, ids, company, other, setor } = await fresh();
      const ana = createContact(ids.newId(), company.id, '+5511987654321', 'Ana Souza', t0, { email: 'ana@acme.test' });
      const bia = { ...createContact(ids.newId(), company.id, '+5521912345678', 'Bia', later(1)), iaAtiva: false };
      const cid = { ...createContact(ids.newId(), company.id, '+5531955554444', null, later(2)), iaPausedUntil: later(3_600_000), updatedAt: later(5_000) };
      for (const c of [ana, bia, cid]) await repos.contacts.insert(c);
      await repos.contacts.insert(createContact(ids.newId(), other.id, '+5511987654321', 'Ana Souza', t0));
      const tag = { id: ids.newId(), companyId: company.id, name: 'vip', description: null, color: null, createdAt: t0, updatedAt: t0 };
      const tag2 = { ...tag, id: ids.newId(), name: 'lead' };
      await repos.tags.insert(tag);
      await repos.tags.insert(tag2);
      await repos.tags.tagContact(ana.id, [tag.id, tag2.id], t0);
      await repos.tags.tagContact(bia.id, [tag.id], t0);
      const conversation = await repos.conversations.findOrCreate(newConversation(ids.newId(), company.id, setor.id, ana.id, t0));
      await repos.conversations.touch(conversation.id, 'inbound', later(9));
      const page = { page: 1, limit: 10 };
      const now = later(10);
      const idsOf = async (search: Parameters<typeof repos.contacts.search>[1]) => (await repos.contacts.search(company.id, search, page, now)).items.map((c) => c.id);
      expect(await idsOf({})).toEqual([cid.id, bia.id, ana.id]);
      expect(await idsOf({ phone: '+551187654321' })).toEqual([ana.id]);
      expect(await repos.contacts.search(company.id, { phone: '+5511987654321' }, { page: 2, limit: 10 }, now)).toEqual({ items: [], total: 1, page: 2, limit: 10, totalPages: 1 });
      expect((await repos.contacts.search(company.id, { phone: '+5511900000000' }, page, now)).total).toBe(0);
      expect(await idsOf({ q: 'souz' })).toEqual([ana.id]);
      expect(await idsOf({ q: 'ANA@ACME' })).toEqual([ana.id]);
      expect(await idsOf({ q: 'ANA@' })).toEqual([ana.id]);
      expect(await idsOf({ q: 'acme.test' })).toEqual([]);
      expect(await idsOf({ q: '554444' })).toEqual([cid.id]);
      expect(await idsOf({ q: '(31) 95555-4444' })).toEqual([cid.id]);
      expect(await idsOf({ q: '1187654321' })).toEqual([ana.id]);
      expect(await idsOf({ q: '5555' })).toEqual([]);
      expect(await idsOf({ q: '50%' })).toEqual([]);
      expect(await idsOf({ iaAtiva: true })).toEqual([ana.id]);
      expect(await idsOf({ iaAtiva: false })).toEqual([cid.id, bia.id]);
      expect(await idsOf({ tagIds: [tag.id] })).toEqual([bia.id, ana.id]);
      expect(await idsOf({ tagIds: [tag.id, tag2.id] })).toEqual([ana.id]);
      expect(await idsOf({ updatedSince: later(5_000) })).toEqual([cid.id]);
      const all = await repos.contacts.search(company.id, {}, { page: 2, limit: 2 }, now);
      expect(all).toMatchObject({ total: 3, page: 2, limit: 2, totalPages: 2 });
      const first = (await repos.contacts.search(company.id, { phone: '+5511987654321' }, page, now)).items[0]!;
      expect(first.tagIds.sort()).toEqual([tag.id, tag2.id].sort());
      expect(first.lastInboundAt).toEqual(later(9));
      expect((await repos.contacts.search(other.id, { q: 'souza' }, page, now)).total).toBe(1);
    });

    it('merges: conversations (joined per box), messages, tags and affinities move, the other contact goes', async () => {
      const { repos, ids, company, setor } = await fresh();
      const second = createSetor(ids.newId(), company.id, t0, { nome: 'Suporte' });
      await repos.setores.insert(second);
      const a = createContact(ids.newId(), company.id, '+5511987654321', 'Ana', t0);
      const b = createContact(ids.newId(), company.id, '+5511912345678', null, t0);
      await repos.contacts.insert(a);
      await repos.contacts.insert(b);
      const ca = await repos.conversations.findOrCreate(newConversation(ids.newId(), company.id, setor.id, a.id, t0));
      const cb = await repos.conversations.findOrCreate(newConversation(ids.newId(), company.id, setor.id, b.id, t0));
      const cb2 = await repos.conversations.findOrCreate(newConversation(ids.newId(), company.id, second.id, b.id, t0));
      const tag = { id: ids.newId(), companyId: company.id, name: 'vip', description: null, color: null, createdAt: t0, updatedAt: t0 };
      await repos.tags.insert(tag);
      await repos.tags.tagContact(b.id, [tag.id], t0);
      await repos.contactAffinities.add({ companyId: company.id, contactId: b.id, setorId: second.id, source: 'inbound', createdAt: t0 });
      await repos.contacts.moveAndDelete(company.id, a.id, b.id);
      expect(await repos.contacts.findById(company.id, b.id)).toBeNull();
      expect((await repos.conversations.findBySetorAndContact(setor.id, a.id))?.id).toBe(ca.id);
      expect(await repos.conversations.findById(company.id, cb.id)).toBeNull();
      expect((await repos.conversations.findById(company.id, cb2.id))?.contactId).toBe(a.id);
      expect(await repos.tags.tagIdsOfContact(a.id)).toEqual([tag.id]);
      expect((await repos.contactAffinities.listByContact(company.id, a.id)).map((x) => x.setorId)).toEqual([second.id]);
      expect((await repos.contacts.stats(company.id, a.id)).conversations).toBe(2);
    });

    it('keeps one conversation per box and contact and moves its timestamps forward', async () => {
      const { repos, ids, company, other, setor } = await fresh();
      const contact = createContact(ids.newId(), company.id, '+5511987654321', null, t0);
      await repos.contacts.insert(contact);
      const first = await repos.conversations.findOrCreate(newConversation(ids.newId(), company.id, setor.id, contact.id, t0));
      const second = await repos.conversations.findOrCreate(newConversation(ids.newId(), company.id, setor.id, contact.id, t0));
      expect(second.id).toBe(first.id);
      const later = new Date(t0.getTime() + 60_000);
      await repos.conversations.touch(first.id, 'inbound', later);
      await repos.conversations.touch(first.id, 'inbound', t0);
      await repos.conversations.touch(first.id, 'outbound', t0);
      const read = await repos.conversations.findById(company.id, first.id);
      expect(read?.lastInboundAt).toEqual(later);
      expect(read?.lastOutboundAt).toEqual(t0);
      expect(await repos.conversations.findById(other.id, first.id)).toBeNull();
      expect((await repos.conversations.findBySetorAndContact(setor.id, contact.id))?.id).toBe(first.id);
    });

    it('stores message records with their content and parts, scoped by company', async () => {
      const { repos, company, other, talking } = await fresh();
      const { inConversation } = await talking('+5511987654321');
      const message: MessageRecord = {
        ...inConversation(),
        senderNumber: '+5511900000000',
        keyMode: 'live',
        content: { type: 'media', media: { mediaType: 'image', url: 'https://x.test/a.png', delivery: 'after_text' }, text: 'Oi' },
        parts: [
          { content: { kind: 'text', text: 'Oi' }, providerMessageId: null },
          { content: { kind: 'media', mediaType: 'image', url: 'https://x.test/a.png' }, providerMessageId: null },
        ],
        status: 'pending',
        providerMessageId: null,
        ...FRESH_MESSAGE_FIELDS,
        createdAt: t0,
        updatedAt: t0,
        // The timeline fields every stored message has (a send outside any ticket).
        ticketId: null,
        direction: 'outbound',
        type: 'message',
        author: null,
        activity: null,
        deliveredAt: null,
        readAt: null,
      };
      await repos.messages.insert(message);
      expect(await repos.messages.findById(company.id, message.id)).toEqual(message);
      const sent: MessageRecord = {
        ...message,
        status: 'sent',
        providerMessageId: 'p-1',
        parts: message.parts.map((p, i) => ({ ...p, providerMessageId: `p-${i}` })),
        sentAt: t0,
        reaction: '👍',
        updatedAt: new Date(t0.getTime() + 1),
      };
      await repos.messages.update(sent);
      expect(await repos.messages.findByIdForUpdate(company.id, message.id)).toEqual(sent);
      expect(await repos.messages.findById(other.id, message.id)).toBeNull();
      expect(await repos.messages.findById(company.id, 'x')).toBeNull();
    });

    it('records the contacts and conversations of an inbound group in one write: new ones inserted, stored ones locked and touched', async () => {
      const { repos, ids, company, setor } = await fresh();
      const known = createContact(ids.newId(), company.id, '+5511987654323', 'Ana', t0);
      await repos.contacts.insert(known);
      const talking = await repos.conversations.findOrCreate(newConversation(ids.newId(), company.id, setor.id, known.id, t0));
      const candidate = (phone: string, at: Date) => {
        const contact = createContact(ids.newId(), company.id, phone, 'Novo', at);
        return { contact, conversation: newConversation(ids.newId(), company.id, setor.id, contact.id, at), phone, at };
      };
      // The known contact written to without the ninth digit: the same contact (match key).
      const [again, fresh1] = [candidate('+551187654323', later(1000)), candidate('+5511987654324', later(2000))];
      const recorded = await repos.conversations.recordInboundContacts([again, fresh1]);
      expect(recorded[0]).toMatchObject({ created: false, contact: { id: known.id, name: 'Ana' }, conversation: { id: talking.id, lastInboundAt: later(1000), updatedAt: later(1000) } });
      expect(recorded[1]).toMatchObject({
        created: true,
        contact: { id: fresh1.contact.id, phone: '+5511987654324', name: 'Novo', companyId: company.id },
        conversation: { id: fresh1.conversation.id, contactId: fresh1.contact.id, setorId: setor.id, lastInboundAt: later(2000) },
      });
      expect(await repos.conversations.findBySetorAndContact(setor.id, fresh1.contact.id)).toEqual(recorded[1]!.conversation);
      expect(await repos.conversations.recordInboundContacts([])).toEqual([]);
    });

    it('stores several inbound messages in one write (an inbound group), each found by its provider id', async () => {
      const { repos, company, setor, talking } = await fresh();
      const { contact, inConversation } = await talking('+5511987654322');
      const inbound = (n: number): MessageRecord => ({
        ...inConversation(),
        senderNumber: null,
        keyMode: 'live',
        content: { type: 'text', text: `Oi ${n}` },
        parts: [],
        status: 'received',
        providerMessageId: `wamid.group.${n}`,
        ...FRESH_MESSAGE_FIELDS,
        createdAt: later(n),
        updatedAt: later(n),
        ticketId: null,
        direction: 'inbound',
        type: 'message',
        author: { type: 'contact', id: contact.id },
        activity: null,
        deliveredAt: null,
        readAt: null,
      });
      const messages = [inbound(1), inbound(2), inbound(3)];
      await repos.messages.insertAllWithEvents(messages, []);
      await repos.messages.insertAllWithEvents([], []);
      for (const message of messages) {
        expect(await repos.messages.findById(company.id, message.id)).toEqual(message);
        expect((await repos.messages.findInboundByProviderId(setor.id, message.providerMessageId!))?.id).toBe(message.id);
      }
    });
  });
}
