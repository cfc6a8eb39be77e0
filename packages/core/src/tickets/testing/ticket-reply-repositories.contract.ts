import { describe, expect, it } from '@jest/globals';
import { createContact } from '../../contacts/index.js';
import { FRESH_MESSAGE_FIELDS, newConversation, type MessageRecord } from '../../messages/index.js';
import { CONTRACT_T0, type RepositoriesUnderTest } from '../../shared/testing/index.js';
import { contractCases } from '../../companies/testing/index.js';
import { ticketContractBoxes } from './ticket-contract-boxes.js';
import type { CompanyRepositories } from '../../companies/index.js';
import type { ContactRepositories } from '../../contacts/index.js';
import type { MessageRepositories } from '../../messages/index.js';
import type { SetorRepositories } from '../../setores/index.js';
import type { RatingReportRepositories, TicketRepositories, TicketSendRepositories, TicketTimelineRepositories } from '../index.js';
import { newTicket, type Ticket } from '../ticket.js';
import { newTicketSend } from '../ticket-send.js';

/** The areas this suite reads and writes. */
type Areas = CompanyRepositories & ContactRepositories & MessageRepositories & RatingReportRepositories & SetorRepositories & TicketRepositories & TicketSendRepositories & TicketTimelineRepositories;

const at = (seconds: number) => new Date(CONTRACT_T0.getTime() + seconds * 1000);

/** The behaviour every implementation of the reply, closing and rating repositories must show (in-memory fake and Kysely alike). */
export function describeTicketReplyRepositoriesContract(name: string, setup: () => Promise<RepositoriesUnderTest<Areas>>): void {
  describe(`ticket reply repositories contract: ${name}`, () => {
    const cases = contractCases('a', setup);
    const fresh = async () => {
      const sut = await cases();
      const { repos, ids, company, other } = sut;
      const { setor, setor2, otherSetor } = await ticketContractBoxes(repos, ids, company.id, other.id);
      const ana = createContact(ids.newId(), company.id, '+5511987650001', 'Ana Souza', CONTRACT_T0);
      const carla = createContact(ids.newId(), other.id, '+5531976540003', 'Carla', CONTRACT_T0);
      for (const c of [ana, carla]) await repos.contacts.insert(c);
      const ticket = async (setorId: string, contactId: string, companyId = company.id, extra: Partial<Ticket> = {}) => {
        const conversation = await repos.conversations.findOrCreate(newConversation(ids.newId(), companyId, setorId, contactId, CONTRACT_T0));
        const t = { ...newTicket({ id: ids.newId(), companyId, number: await repos.tickets.nextNumber(companyId), status: 'open', setorId, contactId, conversationId: conversation.id, source: 'api' }, CONTRACT_T0), ...extra };
        expect(await repos.tickets.insert(t)).toBe(true);
        return t;
      };
      const message = (t: Ticket, id: string, when: Date, extra: Partial<MessageRecord> = {}): MessageRecord => ({
        id,
        companyId: t.companyId,
        conversationId: t.conversationId,
        setorId: t.setorId,
        contactId: t.contactId,
        phone: '+5511987650001',
        senderNumber: null,
        keyMode: 'live',
        content: { type: 'text', text: id },
        parts: [],
        status: 'sent',
        providerMessageId: null,
        ...FRESH_MESSAGE_FIELDS,
        createdAt: when,
        updatedAt: when,
        ticketId: t.id,
        direction: 'outbound',
        type: 'note',
        author: { type: 'api', id: null },
        ...extra,
      });
      return { ...sut, setor, setor2, otherSetor, ana, carla, ticket, message };
    };

    it('stores ticket sends, locks and saves them, lists them by ticket and finds the stale ones', async () => {
      const { repos, ids, company, other, setor, ana, ticket } = await fresh();
      const t = await ticket(setor.id, ana.id);
      const first = newTicketSend({ id: ids.newId(), companyId: company.id, ticketId: t.id, setorId: setor.id, kind: 'closing_message', keyMode: 'live' }, at(0));
      const second = newTicketSend({ id: ids.newId(), companyId: company.id, ticketId: t.id, setorId: setor.id, kind: 'rating_request', keyMode: 'test' }, at(1));
      await repos.ticketSends.insert(first);
      await repos.ticketSends.insert(second);
      expect(await repos.ticketSends.lockById(first.id)).toEqual(first);
      expect(await repos.ticketSends.lockById('not-a-uuid')).toBeNull();
      expect(await repos.ticketSends.lockById(ids.newId())).toBeNull();
      const claimed = { ...first, status: 'sending' as const, attempts: 1, claimedAt: at(5), charge: { debited: 1, counted: 1, day: '2026-03-01' }, updatedAt: at(5) };
      await repos.ticketSends.save(claimed);
      expect(await repos.ticketSends.lockById(first.id)).toEqual(claimed);
      expect((await repos.ticketSends.listByTicket(company.id, t.id)).map((s) => s.id)).toEqual([first.id, second.id]);
      expect(await repos.ticketSends.listByTicket(other.id, t.id)).toEqual([]);
      const mine = (list: string[]) => list.filter((id) => id === first.id || id === second.id);
      expect(mine(await repos.ticketSends.listStale(at(3), 1000))).toEqual([second.id]);
      expect(mine(await repos.ticketSends.listStale(at(6), 1000))).toEqual([second.id, first.id]);
      await repos.ticketSends.save({ ...claimed, status: 'sent', sentAt: at(6), updatedAt: at(6) });
      expect(mine(await repos.ticketSends.listStale(at(60), 1000))).toEqual([second.id]);
    });

    it('reads a timeline by (created_at, id) both ways after a keyset, by ticket or by conversation, within its company', async () => {
      const { repos, ids, company, other, setor, ana, ticket, message } = await fresh();
      const t = await ticket(setor.id, ana.id);
      // Two rows at the same instant: the id breaks the tie.
      const [a, b, c] = [ids.newId(), ids.newId(), ids.newId()];
      await repos.messages.insert(message(t, b, at(1)));
      await repos.messages.insert(message(t, a, at(1)));
      await repos.messages.insert(message(t, c, at(2), { type: 'activity', activity: { kind: 'closing_skipped', from: null, to: 'window_closed' } }));
      const outside = ids.newId();
      await repos.messages.insert(message(t, outside, at(0), { ticketId: null, type: 'message' }));
      const page = (query: Parameters<typeof repos.ticketTimeline.list>[0]) => repos.ticketTimeline.list(query).then((r) => ({ ids: r.items.map((m) => m.id), hasMore: r.hasMore }));
      expect(await page({ companyId: company.id, ticketId: t.id, order: 'asc', after: null, limit: 2 })).toEqual({ ids: [a, b], hasMore: true });
      expect(await page({ companyId: company.id, ticketId: t.id, order: 'asc', after: { at: at(1), id: b }, limit: 2 })).toEqual({ ids: [c], hasMore: false });
      expect(await page({ companyId: company.id, ticketId: t.id, order: 'desc', after: null, limit: 10 })).toEqual({ ids: [c, b, a], hasMore: false });
      expect(await page({ companyId: company.id, ticketId: t.id, order: 'desc', after: { at: at(1), id: b }, limit: 10 })).toEqual({ ids: [a], hasMore: false });
      expect(await page({ companyId: company.id, conversationId: t.conversationId, order: 'asc', after: null, limit: 10 })).toEqual({ ids: [outside, a, b, c], hasMore: false });
      expect(await page({ companyId: other.id, ticketId: t.id, order: 'asc', after: null, limit: 10 })).toEqual({ ids: [], hasMore: false });
      const read = (await repos.ticketTimeline.list({ companyId: company.id, ticketId: t.id, order: 'desc', after: null, limit: 1 })).items[0];
      expect(read).toMatchObject({ id: c, ticketId: t.id, type: 'activity', activity: { kind: 'closing_skipped', from: null, to: 'window_closed' }, author: { type: 'api', id: null } });
    });

    it('totals ratings of a period: requested, distribution, per credited agent, the latest first, with filters', async () => {
      const { repos, ids, company, other, setor, setor2, otherSetor, ana, carla, ticket } = await fresh();
      const agentA = ids.newId();
      const agentB = ids.newId();
      const team = ids.newId();
      let phones = 0;
      const createContactId = async () => {
        phones += 1;
        const c = createContact(ids.newId(), company.id, `+551198765${String(1000 + phones)}`, null, CONTRACT_T0);
        await repos.contacts.insert(c);
        return c.id;
      };
      const rating = (over: Partial<Ticket['rating']>): Partial<Ticket> => ({
        status: 'closed',
        closedAt: at(0),
        rating: { status: 'none', requestedAt: null, score: null, comment: null, ratedAt: null, source: null, agentId: null, teamId: null, ...over },
      });
      const r1 = await ticket(setor.id, ana.id, company.id, rating({ status: 'rated', requestedAt: at(10), score: 5, comment: 'ótimo', ratedAt: at(20), source: 'reply', agentId: agentA, teamId: team }));
      const r2 = await ticket(setor2.id, ana.id, company.id, rating({ status: 'rated', requestedAt: at(11), score: 3, ratedAt: at(30), source: 'api', agentId: agentB }));
      await ticket(setor.id, await createContactId(), company.id, rating({ status: 'requested', requestedAt: at(12), agentId: agentA, teamId: team }));
      // Rated by API without a request: counted by its rating time.
      const r4 = await ticket(setor.id, await createContactId(), company.id, rating({ status: 'rated', score: 4, ratedAt: at(40), source: 'api', agentId: agentA, teamId: team }));
      // Outside the period, and another company's.
      await ticket(setor.id, await createContactId(), company.id, rating({ status: 'rated', requestedAt: at(-100), score: 1, ratedAt: at(-90), agentId: agentA }));
      await ticket(otherSetor.id, carla.id, other.id, rating({ status: 'rated', requestedAt: at(10), score: 1, ratedAt: at(20), agentId: agentA }));
      const period = { companyId: company.id, from: at(0), to: at(1000) };
      const all = await repos.ratingReports.totals(period, 2);
      expect(all.requested).toBe(3);
      expect(all.distribution).toEqual([0, 0, 1, 1, 1]);
      expect(all.byAgent.sort((x, y) => x.agentId.localeCompare(y.agentId))).toEqual(
        [
          { agentId: agentA, distribution: [0, 0, 0, 1, 1] },
          { agentId: agentB, distribution: [0, 0, 1, 0, 0] },
        ].sort((x, y) => x.agentId.localeCompare(y.agentId)),
      );
      expect(all.recent.map((r) => r.ticketId)).toEqual([r4.id, r2.id]);
      expect(all.recent[1]).toEqual({ ticketId: r2.id, number: r2.number, setorId: setor2.id, contactId: ana.id, agentId: agentB, teamId: null, score: 3, comment: null, ratedAt: at(30), source: 'api' });
      expect((await repos.ratingReports.totals({ ...period, setorId: setor2.id }, 20)).distribution).toEqual([0, 0, 1, 0, 0]);
      const ofTeam = await repos.ratingReports.totals({ ...period, teamId: team }, 20);
      expect({ requested: ofTeam.requested, distribution: ofTeam.distribution }).toEqual({ requested: 2, distribution: [0, 0, 0, 1, 1] });
      expect((await repos.ratingReports.totals({ ...period, agentId: agentB }, 20)).recent.map((r) => r.ticketId)).toEqual([r2.id]);
      expect((await repos.ratingReports.totals({ ...period, to: at(11) }, 20)).recent.map((r) => r.ticketId)).toEqual([r1.id]);
    });
  });
}
