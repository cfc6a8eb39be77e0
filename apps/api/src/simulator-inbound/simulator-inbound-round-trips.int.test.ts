import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import pg from 'pg';
import { sql } from 'kysely';
import { ReceiveInboundMessage, contactThreadLockKey, phoneMatchKey } from '@carteiro/core';
import { createTestApi, type TestApi } from '../testing/test-api.js';
import { spyOnStatements } from '../testing/statement-spy.js';

/**
 * The round trips of one inbound message (issue 12's throughput target): the statements of its transaction, counted
 * on the driver's clients from `begin` to `commit`. Other clients (pg-boss, the test's own reads) are not counted.
 */
describe('simulator inbound round trips', () => {
  let api: TestApi;
  let restore = () => {};
  /** Statements of each finished transaction, in order, per client. */
  const transactions: string[][] = [];

  beforeAll(async () => {
    api = await createTestApi();
    const open = new WeakMap<object, string[]>();
    restore = spyOnStatements((client, text) => {
      if (text === 'begin') open.set(client, []);
      else if (text === 'commit' || text === 'rollback') {
        const statements = open.get(client);
        if (statements) transactions.push(statements);
        open.delete(client);
      } else open.get(client)?.push(text);
    });
  });
  afterAll(async () => {
    restore();
    await api?.close();
  });
  afterEach(() => {
    transactions.length = 0;
  });

  /** The statements of the transaction that stored an inbound message (between begin and commit). */
  function inboundStatements(): string[] {
    const found = transactions.filter((t) => t.some((s) => s.includes('insert into "messages"')));
    expect(found).toHaveLength(1);
    return found[0]!;
  }

  /** Polls `probe` until it answers true (10 s deadline). */
  async function until(probe: () => Promise<boolean> | boolean, what: string): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!(await probe())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /**
   * A company with a live key and a connected setor, and a tag for each rule with its `contains` rule: the setor and the
   * tags' ids, in the rules' order.
   */
  async function companyWithRules(rules: readonly (readonly [name: string, value: string, scope?: 'contact' | 'conversation'])[]) {
    const { company, setor, auth } = await api.createTenant({ settings: { company_rpm: 10_000 }, key: { mode: 'live', rpm: 10_000 } });
    const tags: string[] = [];
    for (const [name] of rules) tags.push((await request(api.app).post('/v1/tags').set(auth).send({ name })).body.data.id as string);
    for (const [i, [, value, scope]] of rules.entries()) {
      expect((await request(api.app).post('/v1/tag-rules').set(auth).send({ tag_id: tags[i], match_type: 'contains', match_value: value, scope })).status).toBe(201);
    }
    return { company, setor, tags };
  }

  /**
   * Sends `first` while this test holds the contact lock of `phone` in `setorId`, then `group` once the lane waits for
   * that lock (counting the statements from there), and lets the lane go when the whole group waits for it: every answer,
   * `first`'s first.
   */
  async function groupBehindHeldLane<T>(setorId: string, phone: string, first: () => Promise<T>, group: () => Promise<T>[]): Promise<T[]> {
    const receive = api.container.get(ReceiveInboundMessage);
    const holder = new pg.Client({ connectionString: api.database.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [contactThreadLockKey(setorId, phoneMatchKey(phone))]);
      const blocked = [first()];
      await until(async () => {
        const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`.execute(api.database.db);
        return Number(rows[0]!.n) === 1;
      }, 'the lane to wait for the lock');
      transactions.length = 0;
      const grouped = group();
      await until(() => receive.waiting === grouped.length, `${grouped.length} messages to wait for the lane`);
      await holder.query('ROLLBACK');
      return await Promise.all([...blocked, ...grouped]);
    } finally {
      await holder.end();
    }
  }

  it('a new number with rule text: 8 statements; the same number again: 8; a text no rule reads: 7 — with the same effects', async () => {
    const {
      company,
      setor,
      tags: [budget, price, delivery],
    } = await companyWithRules([
      ['Orçamento', 'orçamento', 'contact'],
      ['Preço', 'preço', 'contact'],
      ['Entrega', 'entrega', 'conversation'],
    ]);
    const inbound = (text: string) => request(api.app).post('/admin/v1/simulator/inbound').set(api.adminAuth).send({ setor_id: setor.id, from: '+5511987650990', text, name: 'Zé' });

    transactions.length = 0;
    const first = await inbound('Quero um orçamento com entrega');
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ contact_created: true, conversation_created: true, ticket_created: true, ticket_status: 'open', duplicate: false });
    expect(new Set(first.body.data.tags_added)).toEqual(new Set([budget, delivery]));
    expect(inboundStatements().length).toBeLessThanOrEqual(8);
    const ticket = await sql<{ number: number }>`SELECT number FROM tickets WHERE id = ${first.body.data.ticket_id}`.execute(api.database.db);
    expect(ticket.rows).toEqual([{ number: 1 }]);
    const created = await sql<{ data: { number: number; ticketId: string } }>`
      SELECT data FROM domain_events WHERE company_id = ${company.id} AND event = 'conversation.created'`.execute(api.database.db);
    expect(created.rows.map((r) => [r.data.ticketId, r.data.number])).toEqual([[first.body.data.ticket_id, 1]]);

    transactions.length = 0;
    const again = await inbound('E o preço do orçamento?');
    expect(again.status).toBe(201);
    expect(again.body.data).toMatchObject({ contact_created: false, conversation_created: false, ticket_created: false, ticket_id: first.body.data.ticket_id });
    expect(again.body.data.tags_added).toEqual([price]);
    expect(inboundStatements().length).toBeLessThanOrEqual(8);

    transactions.length = 0;
    const plain = await inbound('Obrigado');
    expect(plain.status).toBe(201);
    expect(plain.body.data).toMatchObject({ ticket_id: first.body.data.ticket_id, tags_added: [] });
    expect(inboundStatements().length).toBeLessThanOrEqual(7);

    // What the fewer statements still do: the window, the affinity, the touched conversation, the events in order.
    const window = await sql<{ n: string }>`SELECT count(*) AS n FROM conversation_windows WHERE setor_id = ${setor.id}`.execute(api.database.db);
    expect(Number(window.rows[0]!.n)).toBe(1);
    const affinity = await sql<{ source: string }>`SELECT source FROM contact_affinities WHERE setor_id = ${setor.id}`.execute(api.database.db);
    expect(affinity.rows).toEqual([{ source: 'inbound' }]);
    const conversation = await sql<{ last_inbound_at: Date; updated_at: Date }>`
      SELECT last_inbound_at, updated_at FROM conversations WHERE id = ${first.body.data.conversation_id}`.execute(api.database.db);
    expect(conversation.rows[0]!.last_inbound_at.toISOString()).toBe(plain.body.data.received_at);
    expect(conversation.rows[0]!.updated_at.toISOString()).toBe(plain.body.data.received_at);
    const { rows } = await sql<{ event: string }>`SELECT event FROM domain_events WHERE company_id = ${company.id} ORDER BY seq`.execute(api.database.db);
    expect(rows.map((r) => r.event)).toEqual([
      'contact.created',
      'conversation.created',
      'message.received',
      'contact.tagged',
      'message.received',
      'contact.tagged',
      'message.received',
    ]);
  });

  it('ten new numbers written to together share one transaction: at most 10 statements (with begin and commit), rule tags included', async () => {
    const {
      company,
      setor,
      tags: [budget, delivery],
    } = await companyWithRules([
      ['Orçamento', 'orçamento', 'contact'],
      ['Entrega', 'entrega', 'conversation'],
    ]);
    const from = (n: number) => `+55119876511${String(n).padStart(2, '0')}`;
    const inbound = (n: number) =>
      request(api.app).post('/admin/v1/simulator/inbound').set(api.adminAuth).send({ setor_id: setor.id, from: from(n), text: 'Quero um orçamento com entrega', name: `Contato ${n}` }).then((r) => r);
    // The lane held: the contact lock of the first number is taken by this test's own transaction.
    const answers = await groupBehindHeldLane(setor.id, from(0), () => inbound(0), () => Array.from({ length: 10 }, (_, i) => inbound(10 + i)));
    expect(answers.map((a) => a.status)).toEqual(Array(11).fill(201));
    const groupAnswers = answers.slice(1).map((a) => a.body.data);
    expect(groupAnswers.every((d) => d.contact_created && d.ticket_created && d.ticket_status === 'open')).toBe(true);
    for (const d of groupAnswers) expect(new Set(d.tags_added)).toEqual(new Set([budget, delivery]));

    // The group's transaction: the one that took several contact locks at once.
    const group = transactions.filter((t) => t.some((q) => q.includes('insert into "messages"')) && t.some((q) => q.includes('unnest') && q.includes('pg_advisory_xact_lock')));
    expect(group).toHaveLength(1);
    // With begin and commit: the setor, the locks, the contacts and conversations, the rules, the tickets, the tag
    // links of each kind, the messages with their events.
    expect(group[0]!.length + 2).toBeLessThanOrEqual(10);
    // Its effects: ten contacts, tickets numbered 2 to 11, the tags, the events in order per message.
    const { rows: tickets } = await sql<{ number: string; phone: string }>`
      SELECT t.number, c.phone FROM tickets t JOIN contacts c ON c.id = t.contact_id WHERE t.company_id = ${company.id} ORDER BY t.number`.execute(api.database.db);
    expect(tickets.map((t) => Number(t.number))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    // (The requests' arrival order is the sockets', not the test's.)
    const { rows: opened } = await sql<{ ticket: string; number: number }>`
      SELECT data->>'ticketId' AS ticket, (data->>'number')::int AS number FROM domain_events
      WHERE company_id = ${company.id} AND event = 'conversation.created'`.execute(api.database.db);
    const { rows: numbered } = await sql<{ id: string; number: string }>`SELECT id, number FROM tickets WHERE company_id = ${company.id}`.execute(api.database.db);
    expect(new Map(opened.map((o) => [o.ticket, o.number]))).toEqual(new Map(numbered.map((t) => [t.id, Number(t.number)])));
    expect(tickets[0]!.phone).toBe(from(0));
    expect(new Set(tickets.slice(1).map((t) => t.phone))).toEqual(new Set(Array.from({ length: 10 }, (_, i) => from(10 + i))));
    const { rows: links } = await sql<{ n: string }>`
      SELECT (SELECT count(*) FROM ticket_tags WHERE company_id = ${company.id} AND tag_id = ${delivery})
           + (SELECT count(*) FROM contact_tags WHERE tag_id = ${budget}) AS n`.execute(api.database.db);
    expect(Number(links[0]!.n)).toBe(22);
    const { rows: events } = await sql<{ event: string; contact: string }>`
      SELECT event, data->>'contactId' AS contact FROM domain_events WHERE company_id = ${company.id} ORDER BY seq`.execute(api.database.db);
    const perContact = new Map<string, string[]>();
    for (const e of events) perContact.set(e.contact, [...(perContact.get(e.contact) ?? []), e.event]);
    expect(perContact.size).toBe(11);
    for (const list of perContact.values()) expect(list).toEqual(['contact.created', 'conversation.created', 'message.received', 'contact.tagged']);
  });

  it('ten stored contacts written to together: their tickets read and saved in one statement each, at most 9 statements with begin and commit', async () => {
    const { company, setor } = await companyWithRules([['Orçamento', 'orçamento']]);
    const from = (n: number) => `+55119876512${String(n).padStart(2, '0')}`;
    const inbound = (n: number, text: string) =>
      request(api.app).post('/admin/v1/simulator/inbound').set(api.adminAuth).send({ setor_id: setor.id, from: from(n), text }).then((r) => r);
    const firsts: { ticket_id: string }[] = [];
    for (let n = 10; n < 20; n += 1) firsts.push((await inbound(n, 'Oi')).body.data);

    const answers = await groupBehindHeldLane(setor.id, from(0), () => inbound(0, 'Oi'), () => Array.from({ length: 10 }, (_, i) => inbound(10 + i, `Tudo bem? ${i}`)));
    expect(answers.map((a) => a.status)).toEqual(Array(11).fill(201));
    answers.slice(1).forEach((a, i) => {
      expect(a.body.data).toMatchObject({ contact_created: false, ticket_id: firsts[i]!.ticket_id, ticket_created: false, ticket_status: 'open', tags_added: [] });
    });
    const group = transactions.filter((t) => t.some((q) => q.includes('insert into "messages"')) && t.some((q) => q.includes('unnest') && q.includes('pg_advisory_xact_lock')));
    expect(group).toHaveLength(1);
    // The setor, the locks, the contacts and conversations, the active tickets, (the rules, when the cache's second
    // has passed), the tickets' save, the messages with their events: not a read and a save of each ticket.
    expect(group[0]!.length + 2).toBeLessThanOrEqual(9);
    // Each ticket as its message left it.
    const { rows } = await sql<{ id: string; message: string; version: number }>`
      SELECT id, last_message->>'id' AS message, version FROM tickets WHERE company_id = ${company.id} AND id = ANY(${firsts.map((f) => f.ticket_id)}::uuid[])`.execute(api.database.db);
    const byTicket = new Map(rows.map((r) => [r.id, r]));
    answers.slice(1).forEach((a, i) => expect(byTicket.get(firsts[i]!.ticket_id)).toMatchObject({ message: a.body.data.message_id, version: 2 }));
  });
});
