import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { Repositories, createContact, newConversation, newTicket } from '@carteiro/core';
import type { ServiceRepositories } from '@carteiro/postgres';
import request from 'supertest';
import { createTestApi, type TestApi } from '../testing/test-api.js';
import { spyOnStatements } from '../testing/statement-spy.js';

/**
 * The round trips of the ticket reads (issue 12's list target): the statements a request sends, counted on the driver's
 * clients while it runs. A page costs the same few statements at any size: the page, the contacts and official setores
 * of all its tickets in one statement, and their reply windows in one more when some are on official setores (no read
 * per ticket, per contact or per setor).
 */
describe('ticket reads: statements per request', () => {
  let api: TestApi;
  let repos: ServiceRepositories;
  let recording: string[] | null = null;
  let restore = () => {};

  beforeAll(async () => {
    api = await createTestApi();
    repos = api.container.get<ServiceRepositories>(Repositories);
    restore = spyOnStatements((_, text) => {
      // pg-boss runs on its own schedule beside the request: not the request's.
      if (recording && !text.includes('pgboss')) recording.push(text);
    });
  });
  afterAll(async () => {
    restore();
    await api?.close();
  });

  /** The answer to GET `path` and the statements sent while it ran. */
  async function counted(path: string, auth: Record<string, string>) {
    recording = [];
    try {
      const res = await request(api.app).get(path).set(auth);
      expect(res.status).toBe(200);
      return { body: res.body, statements: recording };
    } finally {
      recording = null;
    }
  }

  const HOUR = 3_600_000;

  it('a page of 2, 25 or 100 tickets, a cursor page, the queue and a detail cost the same statements; reply windows as before', async () => {
    const company = await api.createCompany({ company_rpm: 10_000 });
    const key = await api.createKey(company.id, { mode: 'live', rpm: 10_000, scopes: ['tickets:read'] });
    const auth = { Authorization: `Bearer ${key}` };
    const qr = await api.createSetor(company.id, { nome: 'QR' });
    const official = await api.createSetor(company.id, { nome: 'Oficial', channel_type: 'official', official: { phone_number_id: '1', access_token: 't', waba_id: 'w' } });
    const now = Date.now();
    // 120 tickets on two setores, their contacts alternating: official with a window open (the contact wrote an hour
    // ago, from the form without the ninth digit), official with a window closed (25 hours ago), official never
    // written, and QR.
    const kinds = ['open', 'closed', 'never', 'qr'] as const;
    const expected = new Map<string, { open: boolean; open_until: string | null }>();
    for (let i = 0; i < 120; i += 1) {
      const kind = kinds[i % kinds.length]!;
      const at = new Date(now - (200 - i) * 60_000);
      const phone = `+55119${String(81000000 + i).padStart(8, '0')}`;
      const contact = createContact(randomUUID(), company.id, phone, `Contato ${i}`, at);
      await repos.contacts.insert(contact);
      const setorId = kind === 'qr' ? qr.id : official.id;
      const conversation = await repos.conversations.findOrCreate(newConversation(randomUUID(), company.id, setorId, contact.id, at));
      const ticket = newTicket({ id: randomUUID(), companyId: company.id, number: 0, status: i % 3 === 0 ? 'pending' : 'open', setorId, contactId: contact.id, conversationId: conversation.id, source: 'api' }, at);
      expect(await repos.tickets.insertNumbered(ticket)).not.toBeNull();
      if (kind === 'open') await repos.conversationWindows.recordInbound(official.id, `+5511${String(81000000 + i).padStart(8, '0')}`, new Date(now - HOUR));
      if (kind === 'closed') await repos.conversationWindows.recordInbound(official.id, phone, new Date(now - 25 * HOUR));
      expected.set(ticket.id, kind === 'open' ? { open: true, open_until: new Date(now + 23 * HOUR).toISOString() } : { open: kind === 'qr', open_until: null });
    }

    const two = await counted('/v1/tickets?limit=2', auth);
    const page = await counted('/v1/tickets', auth);
    const hundred = await counted('/v1/tickets?limit=100', auth);
    const next = await counted(`/v1/tickets?limit=100&cursor=${encodeURIComponent(hundred.body.data.next_cursor)}`, auth);
    expect([two, page, hundred, next].map((r) => r.body.data.items.length)).toEqual([2, 25, 100, 20]);
    const sizes = [two, page, hundred, next].map((r) => r.statements.length);
    expect(new Set(sizes).size).toBe(1);
    // The list statement, which reads the page's contacts and setores too, and one for its windows.
    const reading = (statements: string[], table: RegExp) => statements.filter((s) => table.test(s)).length;
    for (const r of [two, page, hundred, next]) {
      expect(reading(r.statements, /from "tickets"/)).toBe(1);
      expect(reading(r.statements, /from "tickets".*\b(contacts|setores)\b/s)).toBe(1);
      expect(reading(r.statements, /\bconversation_windows\b/)).toBe(1);
    }

    const items = [...hundred.body.data.items, ...next.body.data.items] as { id: string; reply_window: unknown; contact: { name: string } | null }[];
    expect(items).toHaveLength(120);
    for (const item of items) expect([item.id, item.reply_window]).toEqual([item.id, expected.get(item.id)]);
    expect(items.every((item) => item.contact?.name.startsWith('Contato '))).toBe(true);

    // The queue (open tickets without agent) and a detail: also independent of the page size.
    const queueOne = await counted('/v1/queue?limit=1', auth);
    const queueFull = await counted('/v1/queue?limit=100', auth);
    expect([queueOne.body.data.items.length, queueFull.body.data.items.length]).toEqual([1, 80]);
    expect(queueOne.statements.length).toBe(queueFull.statements.length);
    expect(reading(queueFull.statements, /\b(contacts|setores)\b/)).toBe(1);
    const withWindow = items.find((item) => expected.get(item.id)?.open_until)!;
    const detail = await counted(`/v1/tickets/${withWindow.id}`, auth);
    expect(detail.body.data.reply_window).toEqual(expected.get(withWindow.id));
    expect(reading(detail.statements, /\b(contacts|setores|conversation_windows)\b/)).toBe(2);
    // Beside the key check (one statement): the page with its contacts and setores, its windows; the queue reads
    // its contacts and setores apart and adds its totals; a detail its links.
    expect(sizes[0]).toBe(3);
    expect(queueFull.statements).toHaveLength(5);
    expect(detail.statements).toHaveLength(5);

    // A page without official tickets reads no window.
    const qrOnly = await counted(`/v1/tickets?setor_id=${qr.id}`, auth);
    expect(qrOnly.body.data.items).toHaveLength(25);
    expect(qrOnly.statements).toHaveLength(2);
  });

  it('a detail reads its linked CRM opportunities in one statement, however many there are, in the links\' order', async () => {
    const company = await api.createCompany({ company_rpm: 10_000 });
    const key = await api.createKey(company.id, { mode: 'live', rpm: 10_000, scopes: ['tickets:read', 'tickets:write', 'crm:read', 'crm:write'] });
    const auth = { Authorization: `Bearer ${key}` };
    const setor = await api.createSetor(company.id);
    await api.connectSetor(company.id, setor.id);
    const inbound = await request(api.app).post('/admin/v1/simulator/inbound').set(api.adminAuth).send({ setor_id: setor.id, from: '+5511955553001', text: 'Oi' });
    expect(inbound.status).toBe(201);
    const ticketId = inbound.body.data.ticket_id as string;
    const without = await counted(`/v1/tickets/${ticketId}`, auth);
    const opportunities: string[] = [];
    for (const title of ['Site', 'App', 'Logo']) {
      const created = await request(api.app).post('/v1/crm/opportunities').set(auth).send({ title, phone: '+5511955553001' });
      expect(created.status).toBe(201);
      opportunities.push(created.body.data.id as string);
    }
    for (const id of [opportunities[1], opportunities[0], opportunities[2]]) {
      expect((await request(api.app).post(`/v1/tickets/${ticketId}/links`).set(auth).send({ type: 'crm_opportunity', id })).status).toBe(201);
    }
    const withThree = await counted(`/v1/tickets/${ticketId}`, auth);
    expect(withThree.body.data.links.crm_opportunities.map((o: { title: string }) => o.title)).toEqual(['App', 'Site', 'Logo']);
    expect(withThree.statements).toHaveLength(without.statements.length + 1);
  });
});
