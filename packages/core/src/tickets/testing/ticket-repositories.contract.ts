import { describe, expect, it } from '@jest/globals';
import { createAgent } from '../../agents/index.js';
import { createContact } from '../../contacts/index.js';
import { newConversation } from '../../messages/index.js';
import { createSetor } from '../../setores/index.js';
import { CONTRACT_T0, type RepositoriesUnderTest } from '../../shared/testing/index.js';
import { contractCases } from '../../companies/testing/index.js';
import { ticketContractBoxes } from './ticket-contract-boxes.js';
import type { AgentRepositories } from '../../agents/index.js';
import type { ChannelRepositories } from '../../channel/index.js';
import type { CompanyRepositories } from '../../companies/index.js';
import type { ContactRepositories } from '../../contacts/index.js';
import type { MessageRepositories } from '../../messages/index.js';
import type { SetorRepositories } from '../../setores/index.js';
import type { TagRepositories } from '../../tags/index.js';
import type { TicketRepositories } from '../index.js';
import { newTicket, type NewTicket, type Ticket } from '../ticket.js';
import { TicketActiveError } from '../ticket-errors.js';
import { contactThreadLockKey } from '../inbound-ticket.js';

/** The areas this suite reads and writes. */
type Areas = AgentRepositories & ChannelRepositories & CompanyRepositories & ContactRepositories & MessageRepositories & SetorRepositories & TagRepositories & TicketRepositories;

const at = (seconds: number) => new Date(CONTRACT_T0.getTime() + seconds * 1000);

/** The behaviour every implementation of the tickets area's repositories must show (in-memory fake and Kysely alike). */
export function describeTicketRepositoriesContract(name: string, setup: () => Promise<RepositoriesUnderTest<Areas>>): void {
  describe(`ticket repositories contract: ${name}`, () => {
    const cases = contractCases('b', setup);
    const fresh = async () => {
      const sut = await cases();
      const { repos, ids, company, other } = sut;
      const { setor, setor2, otherSetor } = await ticketContractBoxes(repos, ids, company.id, other.id);
      const ana = createContact(ids.newId(), company.id, '+5511987650001', 'Ana Souza', CONTRACT_T0);
      const bruno = createContact(ids.newId(), company.id, '+5521998760002', 'Bruno Lima', CONTRACT_T0);
      const carla = createContact(ids.newId(), other.id, '+5531976540003', 'Carla', CONTRACT_T0);
      for (const c of [ana, bruno, carla]) await repos.contacts.insert(c);
      const conversation = async (setorId: string, contactId: string, companyId = company.id) =>
        repos.conversations.findOrCreate(newConversation(ids.newId(), companyId, setorId, contactId, CONTRACT_T0));
      /** A ticket stored with the next number of its company. */
      const open = async (input: Partial<NewTicket> & { setorId: string; contactId: string }, when = CONTRACT_T0, extra: Partial<Ticket> = {}) => {
        const companyId = input.companyId ?? company.id;
        const conv = await conversation(input.setorId, input.contactId, companyId);
        const ticket = {
          ...newTicket({ id: ids.newId(), companyId, number: await repos.tickets.nextNumber(companyId), status: 'open', conversationId: conv.id, source: 'api', ...input }, when),
          ...extra,
        };
        expect(await repos.tickets.insert(ticket)).toBe(true);
        return ticket;
      };
      return { ...sut, setor, setor2, otherSetor, ana, bruno, carla, conversation, open };
    };

    it('numbers tickets per company and reads them back only in their company', async () => {
      const { repos, company, other, setor, otherSetor, ana, carla, open } = await fresh();
      const first = await open({ setorId: setor.id, contactId: ana.id });
      const foreign = await open({ companyId: other.id, setorId: otherSetor.id, contactId: carla.id });
      expect(first.number).toBe(1);
      expect(foreign.number).toBe(1);
      expect(await repos.tickets.nextNumber(company.id)).toBe(2);
      expect(await repos.tickets.findById(company.id, first.id)).toEqual(first);
      expect(await repos.tickets.lockById(company.id, first.id)).toEqual(first);
      expect(await repos.tickets.findById(other.id, first.id)).toBeNull();
      expect(await repos.tickets.findById(company.id, 'not-a-uuid')).toBeNull();
    });

    it('inserts several tickets of a company in one write, numbered in order from its next number', async () => {
      const { repos, ids, company, setor, setor2, ana, bruno, open, conversation } = await fresh();
      await open({ setorId: setor.id, contactId: ana.id });
      const ticketOf = async (setorId: string, contactId: string) =>
        newTicket({ id: ids.newId(), companyId: company.id, number: 0, status: 'open', setorId, contactId, conversationId: (await conversation(setorId, contactId)).id, source: 'inbound' }, at(1));
      const batch = [await ticketOf(setor.id, bruno.id), await ticketOf(setor2.id, ana.id), await ticketOf(setor2.id, bruno.id)];
      expect(await repos.tickets.insertNumberedAll(company.id, batch)).toEqual([2, 3, 4]);
      expect(await repos.tickets.findById(company.id, batch[1]!.id)).toEqual({ ...batch[1]!, number: 3 });
      expect(await repos.tickets.insertNumberedAll(company.id, [])).toEqual([]);
      expect(await repos.tickets.nextNumber(company.id)).toBe(5);
    });

    it('keeps one active ticket per setor and contact; a closed one may stand beside a new one', async () => {
      const { repos, ids, company, setor, setor2, ana, open, conversation } = await fresh();
      const first = await open({ setorId: setor.id, contactId: ana.id });
      const conv = await conversation(setor.id, ana.id);
      const second = newTicket({ id: ids.newId(), companyId: company.id, number: 99, status: 'pending', setorId: setor.id, contactId: ana.id, conversationId: conv.id, source: 'inbound' }, at(1));
      expect(await repos.tickets.insert(second)).toBe(false);
      expect(await repos.tickets.findById(company.id, second.id)).toBeNull();
      expect((await repos.tickets.findActive(setor.id, ana.id))?.id).toBe(first.id);
      await open({ setorId: setor2.id, contactId: ana.id });

      const closed: Ticket = { ...first, status: 'closed', closedAt: at(10), waitingSince: null, version: 2, updatedAt: at(10) };
      expect(await repos.tickets.save(closed, 1)).toBe(true);
      expect(await repos.tickets.findActive(setor.id, ana.id)).toBeNull();
      expect(await repos.tickets.insert(second)).toBe(true);
      // Reopening the closed one while the new one is active is refused.
      await expect(repos.tickets.save({ ...closed, status: 'open', closedAt: null, version: 3 }, 2)).rejects.toBeInstanceOf(TicketActiveError);
    });

    it('saves only over the expected version and keeps number and creation time', async () => {
      const { repos, company, setor, ana, open } = await fresh();
      const ticket = await open({ setorId: setor.id, contactId: ana.id });
      const changed: Ticket = {
        ...ticket,
        status: 'snoozed',
        priority: 'urgent',
        agentId: '00000000-0000-4000-8000-00000000a001',
        teamId: '00000000-0000-4000-8000-00000000b001',
        snoozedUntil: at(3600),
        waitingSince: null,
        lastMessage: { id: '00000000-0000-4000-8000-00000000c001', direction: 'inbound', type: 'message', preview: 'Olá', at: at(5) },
        lastActivityAt: at(5),
        firstResponseAt: at(4),
        rating: { status: 'requested', requestedAt: at(6), score: 4, comment: 'bom', ratedAt: at(7), source: 'reply', agentId: null, teamId: null },
        handoff: { summary: 'quer orçamento', at: at(3) },
        version: 2,
        updatedAt: at(5),
      };
      expect(await repos.tickets.save({ ...changed, number: 777, createdAt: at(99) }, 1)).toBe(true);
      expect(await repos.tickets.findById(company.id, ticket.id)).toEqual(changed);
      expect(await repos.tickets.save({ ...changed, priority: 'low', version: 3 }, 1)).toBe(false);
      expect((await repos.tickets.findById(company.id, ticket.id))?.priority).toBe('urgent');
    });

    it("reads the active tickets of several setor and contact pairs at once, and saves several over their expected versions", async () => {
      const { repos, company, setor, setor2, ana, bruno, open } = await fresh();
      const first = await open({ setorId: setor.id, contactId: ana.id });
      const second = await open({ setorId: setor2.id, contactId: bruno.id });
      const closed = await open({ setorId: setor.id, contactId: bruno.id });
      expect(await repos.tickets.save({ ...closed, status: 'closed', closedAt: at(2), waitingSince: null, version: 2 }, 1)).toBe(true);
      const pairs = [
        { setorId: setor.id, contactId: ana.id },
        { setorId: setor2.id, contactId: bruno.id },
        { setorId: setor.id, contactId: bruno.id },
        { setorId: setor2.id, contactId: ana.id },
      ];
      const found = await repos.tickets.findActiveAll(pairs);
      expect(new Map(found.map((t) => [t.id, t]))).toEqual(new Map([[first.id, first], [second.id, second]]));
      expect(await repos.tickets.findActiveAll([])).toEqual([]);

      const wrote = (t: Ticket, seconds: number): Ticket => ({
        ...t,
        lastMessage: { id: '00000000-0000-4000-8000-00000000c002', direction: 'inbound', type: 'message', preview: 'Oi', at: at(seconds) },
        lastActivityAt: at(seconds),
        priority: 'high',
        version: t.version + 1,
        updatedAt: at(seconds),
      });
      // The second's version moved meanwhile: only the first is written.
      expect(await repos.tickets.save({ ...second, version: 2 }, 1)).toBe(true);
      const saved = await repos.tickets.saveAll([
        { ticket: { ...wrote(first, 5), number: 777, createdAt: at(99) }, expectedVersion: 1 },
        { ticket: wrote(second, 5), expectedVersion: 1 },
      ]);
      expect(saved).toEqual([first.id]);
      expect(await repos.tickets.findById(company.id, first.id)).toEqual(wrote(first, 5));
      expect((await repos.tickets.findById(company.id, second.id))?.priority).toBeNull();
      expect(await repos.tickets.saveAll([])).toEqual([]);
    });

    it('finds the latest ticket closed within the reopen window', async () => {
      const { repos, setor, ana, open } = await fresh();
      const ticket = await open({ setorId: setor.id, contactId: ana.id });
      await repos.tickets.save({ ...ticket, status: 'closed', closedAt: at(100), waitingSince: null, version: 2 }, 1);
      expect((await repos.tickets.findReopenable(setor.id, ana.id, at(50)))?.id).toBe(ticket.id);
      expect(await repos.tickets.findReopenable(setor.id, ana.id, at(101))).toBeNull();
    });

    it('lists by last activity descending with keyset pages and every filter', async () => {
      const { repos, company, setor, setor2, ana, bruno, open, ids } = await fresh();
      const tag = { id: ids.newId(), companyId: company.id, name: 'vip', createdAt: CONTRACT_T0, updatedAt: CONTRACT_T0 };
      await repos.tags.insert(tag);
      const agent = '00000000-0000-4000-8000-00000000a002';
      const a = await open({ setorId: setor.id, contactId: ana.id, priority: 'high' }, at(10));
      const b = await open({ setorId: setor.id, contactId: bruno.id, agentId: agent }, at(20));
      const c = await open({ setorId: setor2.id, contactId: ana.id, status: 'pending', teamId: '00000000-0000-4000-8000-00000000b002' }, at(30));
      await repos.tickets.addTags(company.id, b.id, [tag.id], at(21));
      const all = { statuses: ['open', 'pending', 'snoozed'] as const };
      const list = async (filter: object, after: { at: Date; id: string } | null = null, limit = 10) =>
        (await repos.tickets.list(company.id, { ...all, ...filter }, { sort: 'last_activity_desc', after, limit })).items.map((t) => t.id);

      expect(await list({})).toEqual([c.id, b.id, a.id]);
      const page1 = await repos.tickets.list(company.id, all, { sort: 'last_activity_desc', after: null, limit: 2 });
      expect([page1.items.map((t) => t.id), page1.hasMore]).toEqual([[c.id, b.id], true]);
      expect(await list({}, { at: b.lastActivityAt, id: b.id })).toEqual([a.id]);
      expect(await list({ statuses: ['pending'] })).toEqual([c.id]);
      expect(await list({ setorId: setor2.id })).toEqual([c.id]);
      expect(await list({ contactId: bruno.id })).toEqual([b.id]);
      expect(await list({ agentId: agent })).toEqual([b.id]);
      expect(await list({ agentId: null })).toEqual([c.id, a.id]);
      expect(await list({ teamId: c.teamId })).toEqual([c.id]);
      expect(await list({ priorities: ['high', 'urgent'] })).toEqual([a.id]);
      expect(await list({ tagId: tag.id })).toEqual([b.id]);
      expect(await list({ updatedSince: at(20) })).toEqual([c.id, b.id]);
      expect(await list({ q: 'bruno' })).toEqual([b.id]);
      // Digits: the end of the phone (either ninth-digit form), or the number.
      expect(await list({ q: '650001' })).toEqual([c.id, a.id]);
      expect(await list({ q: '98765' })).toEqual([]);
      expect(await list({ q: '(21) 9876-0002' })).toEqual([b.id]);
      expect(await list({ q: String(b.number) })).toEqual([b.id]);
      expect(await list({ statuses: ['closed'] })).toEqual([]);
      expect((await repos.tickets.list(company.id, all, { sort: 'last_activity_desc', after: null, limit: 10 })).items[1]!.tagIds).toEqual([tag.id]);
    });

    it('lists by update ascending after the keyset and up to the horizon', async () => {
      const { repos, company, setor, setor2, ana, bruno, open } = await fresh();
      const a = await open({ setorId: setor.id, contactId: ana.id }, at(10));
      const b = await open({ setorId: setor.id, contactId: bruno.id }, at(20));
      const c = await open({ setorId: setor2.id, contactId: ana.id }, at(30));
      const all = { statuses: ['open', 'pending', 'snoozed', 'closed'] as const };
      const list = async (after: { at: Date; id: string } | null, horizon?: Date) =>
        (await repos.tickets.list(company.id, all, { sort: 'updated_asc', after, limit: 10, horizon })).items.map((t) => t.id);
      expect(await list(null)).toEqual([a.id, b.id, c.id]);
      expect(await list({ at: a.updatedAt, id: a.id })).toEqual([b.id, c.id]);
      expect(await list(null, at(25))).toEqual([a.id, b.id]);
      await repos.tickets.save({ ...a, updatedAt: at(40), version: 2 }, 1);
      expect(await list({ at: b.updatedAt, id: b.id })).toEqual([c.id, a.id]);
    });

    it("reads the views' parts of many tickets at once: contact, official setor and its window, ninth-digit aware", async () => {
      const { repos, ids, company, other, setor, ana, bruno, open } = await fresh();
      const credentials = { phoneNumberId: '100200300', accessToken: 'token', wabaId: 'waba' };
      const official = createSetor(ids.newId(), company.id, CONTRACT_T0, { nome: 'Oficial', channelType: 'official', official: credentials });
      await repos.setores.insert(official);
      const abroad = createContact(ids.newId(), company.id, '+14155550123', null, CONTRACT_T0);
      await repos.contacts.insert(abroad);
      // Ana wrote from the form without the ninth digit; Bruno wrote only to the QR setor; the abroad contact wrote.
      await repos.conversationWindows.recordInbound(official.id, '+551187650001', at(5));
      await repos.conversationWindows.recordInbound(setor.id, bruno.phone, at(6));
      await repos.conversationWindows.recordInbound(official.id, abroad.phone, at(7));
      const a = await open({ setorId: official.id, contactId: ana.id }, at(10));
      const b = await open({ setorId: official.id, contactId: bruno.id }, at(20));
      const q = await open({ setorId: setor.id, contactId: bruno.id }, at(30));
      const x = await open({ setorId: official.id, contactId: abroad.id }, at(40));
      const parts = await repos.tickets.viewParts(company.id, [a, b, q, x]);
      const contactOf = (c: { id: string; name: string | null; phone: string }) => ({ id: c.id, name: c.name, phone: c.phone, iaAtiva: true });
      expect(parts.get(a.id)).toEqual({ contact: contactOf(ana), official: true, lastInboundAt: at(5) });
      expect(parts.get(b.id)).toEqual({ contact: contactOf(bruno), official: true, lastInboundAt: null });
      expect(parts.get(q.id)).toEqual({ contact: contactOf(bruno), official: false, lastInboundAt: null });
      expect(parts.get(x.id)).toEqual({ contact: contactOf(abroad), official: true, lastInboundAt: at(7) });
      // Read as another company: neither the contact nor the setor is its own.
      expect((await repos.tickets.viewParts(other.id, [a])).get(a.id)).toEqual({ contact: null, official: false, lastInboundAt: null });
      expect((await repos.tickets.viewParts(company.id, [])).size).toBe(0);
    });

    it('answers a list page with the same view parts when asked (read with the page), and none when not', async () => {
      const { repos, ids, company, setor, ana, bruno, open } = await fresh();
      const credentials = { phoneNumberId: '100200301', accessToken: 'token', wabaId: 'waba' };
      const official = createSetor(ids.newId(), company.id, CONTRACT_T0, { nome: 'Oficial', channelType: 'official', official: credentials });
      await repos.setores.insert(official);
      await repos.conversationWindows.recordInbound(official.id, '+551187650001', at(5));
      const a = await open({ setorId: official.id, contactId: ana.id }, at(10));
      const q = await open({ setorId: setor.id, contactId: bruno.id }, at(30));
      const request = { sort: 'last_activity_desc', after: null, limit: 10 } as const;
      const filter = { statuses: ['open', 'pending', 'snoozed'] as const };
      const page = await repos.tickets.list(company.id, filter, { ...request, withViewParts: true });
      expect(page.items.map((t) => t.id)).toEqual([q.id, a.id]);
      expect(page.parts).toEqual(await repos.tickets.viewParts(company.id, page.items));
      expect(page.parts?.get(a.id)).toEqual({ contact: { id: ana.id, name: ana.name, phone: ana.phone, iaAtiva: true }, official: true, lastInboundAt: at(5) });
      expect((await repos.tickets.list(company.id, filter, request)).parts).toBeUndefined();
    });

    it('orders the queue by priority, waiting time and id, with totals and the count before a page', async () => {
      const { repos, company, setor, setor2, ana, bruno, open } = await fresh();
      const none = await open({ setorId: setor.id, contactId: ana.id }, at(1));
      const urgent = await open({ setorId: setor.id, contactId: bruno.id, priority: 'urgent' }, at(5));
      const low = await open({ setorId: setor2.id, contactId: ana.id, priority: 'low' }, at(2));
      const urgentLater = await open({ setorId: setor2.id, contactId: bruno.id, priority: 'urgent' }, at(9));
      await repos.tickets.save({ ...urgentLater, waitingSince: at(3), version: 2 }, 1);
      const full = await repos.tickets.queue(company.id, {}, null, 10);
      expect(full.items.map((t) => t.id)).toEqual([urgentLater.id, urgent.id, low.id, none.id]);
      expect([full.total, full.oldestWaitingSince, full.before, full.hasMore]).toEqual([4, at(1), 0, false]);
      const second = await repos.tickets.queue(company.id, {}, { rank: 0, waitingSince: urgent.waitingSince, id: urgent.id }, 1);
      expect([second.items.map((t) => t.id), second.before, second.hasMore, second.total]).toEqual([[low.id], 2, true, 4]);
      expect((await repos.tickets.queue(company.id, { setorId: setor2.id }, null, 10)).items.map((t) => t.id)).toEqual([urgentLater.id, low.id]);
      expect((await repos.tickets.queue(company.id, { priorities: ['low'] }, null, 10)).items.map((t) => t.id)).toEqual([low.id]);
      // Assigned, pending or unanswered-and-replied tickets: an agent takes it out; no wait sorts last.
      await repos.tickets.save({ ...none, agentId: '00000000-0000-4000-8000-00000000a003', version: 2 }, 1);
      await repos.tickets.save({ ...low, waitingSince: null, version: 2 }, 1);
      const after = await repos.tickets.queue(company.id, {}, null, 10);
      expect(after.items.map((t) => t.id)).toEqual([urgentLater.id, urgent.id, low.id]);
      expect(after.oldestWaitingSince).toEqual(at(3));
    });

    it('counts and lists the active tickets of agents', async () => {
      const { repos, company, setor, setor2, ana, bruno, open } = await fresh();
      const agent = '00000000-0000-4000-8000-00000000a004';
      const idle = '00000000-0000-4000-8000-00000000a005';
      const first = await open({ setorId: setor.id, contactId: ana.id, agentId: agent }, at(1));
      const second = await open({ setorId: setor.id, contactId: bruno.id, agentId: agent }, at(2));
      await open({ setorId: setor2.id, contactId: ana.id, agentId: agent }, at(3));
      await repos.tickets.save({ ...second, status: 'closed', closedAt: at(4), version: 2 }, 1);
      expect(await repos.tickets.openCountsByAgent([agent, idle])).toEqual({ [agent]: 2, [idle]: 0 });
      expect((await repos.tickets.listActiveOfAgent(company.id, agent)).map((t) => t.id)[0]).toBe(first.id);
      expect(await repos.tickets.listActiveOfAgent(company.id, idle)).toEqual([]);
    });

    it('finds snoozed tickets that are due, earliest first', async () => {
      const { repos, company, setor, setor2, ana, bruno, open } = await fresh();
      const soon = await open({ setorId: setor.id, contactId: ana.id }, at(0), { status: 'snoozed', snoozedUntil: at(100), waitingSince: null });
      const sooner = await open({ setorId: setor.id, contactId: bruno.id }, at(0), { status: 'snoozed', snoozedUntil: at(50), waitingSince: null });
      await open({ setorId: setor2.id, contactId: ana.id }, at(0), { status: 'snoozed', snoozedUntil: null, waitingSince: null });
      const due = (await repos.tickets.dueSnoozed(at(100), 10)).filter((d) => d.companyId === company.id);
      expect(due).toEqual([
        { companyId: company.id, id: sooner.id },
        { companyId: company.id, id: soon.id },
      ]);
      expect((await repos.tickets.dueSnoozed(at(60), 10)).filter((d) => d.companyId === company.id)).toEqual([{ companyId: company.id, id: sooner.id }]);
    });

    it('adds and removes tags idempotently and links records once', async () => {
      const { repos, company, setor, ana, open, ids } = await fresh();
      const ticket = await open({ setorId: setor.id, contactId: ana.id });
      const t1 = { id: ids.newId(), companyId: company.id, name: 'um', createdAt: CONTRACT_T0, updatedAt: CONTRACT_T0 };
      const t2 = { id: ids.newId(), companyId: company.id, name: 'dois', createdAt: CONTRACT_T0, updatedAt: CONTRACT_T0 };
      await repos.tags.insert(t1);
      await repos.tags.insert(t2);
      expect(await repos.tickets.addTags(company.id, ticket.id, [t1.id], at(1))).toEqual([t1.id]);
      expect(await repos.tickets.addTags(company.id, ticket.id, [t1.id, t2.id, t2.id], at(2))).toEqual([t2.id]);
      expect((await repos.tickets.findById(company.id, ticket.id))?.tagIds).toEqual([t1.id, t2.id].sort());
      expect(await repos.tickets.removeTags(ticket.id, [t2.id, ids.newId()])).toEqual([t2.id]);
      expect(await repos.tickets.removeTags(ticket.id, [t2.id])).toEqual([]);
      expect((await repos.tickets.findById(company.id, ticket.id))?.tagIds).toEqual([t1.id]);
      // Links in one write (an inbound group), a link already there kept.
      await repos.tickets.linkTags(company.id, [{ ticketId: ticket.id, tagId: t1.id }, { ticketId: ticket.id, tagId: t2.id }], at(5));
      await repos.tickets.linkTags(company.id, [], at(5));
      expect((await repos.tickets.findById(company.id, ticket.id))?.tagIds).toEqual([t1.id, t2.id].sort());
      expect(await repos.tickets.removeTags(ticket.id, [t2.id])).toEqual([t2.id]);

      const target = ids.newId();
      expect(await repos.tickets.link(company.id, ticket.id, { type: 'crm_opportunity', targetId: target, linkedAt: at(3) })).toBe(true);
      expect(await repos.tickets.link(company.id, ticket.id, { type: 'crm_opportunity', targetId: target, linkedAt: at(4) })).toBe(false);
      expect(await repos.tickets.links(ticket.id)).toEqual([{ type: 'crm_opportunity', targetId: target, linkedAt: at(3) }]);
      expect(await repos.tickets.unlink(ticket.id, 'crm_opportunity', target)).toBe(true);
      expect(await repos.tickets.unlink(ticket.id, 'crm_opportunity', target)).toBe(false);
      expect(await repos.tickets.links(ticket.id)).toEqual([]);
    });

    it("finds the contact's most recently active conversation", async () => {
      const { repos, company, other, setor, setor2, ana, conversation } = await fresh();
      expect(await repos.tickets.latestConversationOf(company.id, ana.id)).toBeNull();
      const first = await conversation(setor.id, ana.id);
      const second = await conversation(setor2.id, ana.id);
      await repos.conversations.touch(first.id, 'inbound', at(50));
      await repos.conversations.touch(second.id, 'outbound', at(20));
      expect(await repos.tickets.latestConversationOf(company.id, ana.id)).toEqual({ id: first.id, setorId: setor.id });
      expect(await repos.tickets.latestConversationOf(other.id, ana.id)).toBeNull();
    });

    it('counts each agent’s non-closed tickets of the company', async () => {
      const { repos, ids, company, setor, setor2, ana, bruno, open } = await fresh();
      const agent = (name: string, email: string) => createAgent(ids.newId(), company.id, CONTRACT_T0, { name, email });
      const [x, y] = [agent('X', 'x@acme.com'), agent('Y', 'y@acme.com')];
      await repos.agents.insertUnique(x);
      await repos.agents.insertUnique(y);
      const closed = { status: 'closed' as const, closedAt: at(60), waitingSince: null };
      await open({ setorId: setor.id, contactId: ana.id, agentId: x.id });
      await open({ setorId: setor.id, contactId: bruno.id, agentId: x.id });
      await open({ setorId: setor2.id, contactId: ana.id, agentId: x.id }, CONTRACT_T0, closed);
      await open({ setorId: setor2.id, contactId: bruno.id, agentId: y.id }, CONTRACT_T0, closed);
      expect(await repos.agents.openTicketCounts(company.id, [x.id, y.id])).toEqual(new Map([[x.id, 2]]));
    });

    it('serialises inbound handling per setor and phone key without failing', async () => {
      const { uow, setor } = await fresh();
      const locked = uow.transaction(async (tx) => {
        await tx.tickets.lockContactThread(setor.id, '5511987650001');
        await tx.tickets.lockContactThread(setor.id, '5511987650001');
        return 'done';
      });
      await expect(locked).resolves.toBe('done');
    });

    it("reads an inbound group's setores with its contact locks in one call: those that exist, a lock already held included", async () => {
      const { uow, setor, setor2 } = await fresh();
      const unknown = '00000000-0000-4000-8000-00000000dead';
      const read = await uow.transaction(async (tx) => {
        await tx.tickets.lockContactThread(setor.id, '5511987650004');
        const keys = [contactThreadLockKey(setor.id, '5511987650004'), contactThreadLockKey(setor2.id, '5511987650005')].sort();
        const found = await tx.setores.findAllLocking([setor.id, unknown, setor2.id, setor.id], keys);
        return { found: found.map((s) => s.id).sort(), none: await tx.setores.findAllLocking([unknown], keys), empty: await tx.setores.findAllLocking([], []) };
      });
      expect(read).toEqual({ found: [setor.id, setor2.id].sort(), none: [], empty: [] });
    });

    it('locks several contact threads in one call, a key given twice or already held included', async () => {
      const { uow, setor } = await fresh();
      const locked = uow.transaction(async (tx) => {
        await tx.tickets.lockContactThread(setor.id, '5511987650002');
        await tx.tickets.lockContactThreads([
          { setorId: setor.id, phoneKey: '5511987650003' },
          { setorId: setor.id, phoneKey: '5511987650002' },
          { setorId: setor.id, phoneKey: '5511987650003' },
        ]);
        await tx.tickets.lockContactThreads([]);
        return 'done';
      });
      await expect(locked).resolves.toBe('done');
    });
  });
}
