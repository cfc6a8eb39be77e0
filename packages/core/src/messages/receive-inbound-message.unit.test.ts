import { describe, expect, it } from '@jest/globals';
import { MessagingWorld } from '../testing/messaging-world.js';
import { TicketInboundThreads } from '../tickets/index.js';
import { NotFoundError } from '../shared/errors.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { ReceiveInboundMessage, type InboundMessageResult } from './receive-inbound-message.js';

/** The world's unit of work, counting transactions; `failFor` makes the insert of a message with that text throw. */
function countingUow(world: MessagingWorld, failFor: { text: string | null } = { text: null }) {
  const counted = { transactions: 0 };
  const uow: UnitOfWork<never> = {
    transaction: (work) => {
      counted.transactions += 1;
      return world.uow.transaction((repos) => {
        const refuse = (texts: unknown[]) => {
          if (texts.includes(failFor.text)) throw new Error('the store refused this message');
        };
        const messages = Object.create(repos.messages) as typeof repos.messages;
        messages.insertWithEvents = (message, events) => {
          refuse([(message.content as { text?: string }).text]);
          return repos.messages.insertWithEvents(message, events);
        };
        messages.insertAllWithEvents = (list, events) => {
          refuse(list.map((m) => (m.content as { text?: string }).text));
          return repos.messages.insertAllWithEvents(list, events);
        };
        return work({ ...repos, messages } as never);
      });
    },
  };
  return { uow, counted };
}

async function setup(failFor: { text: string | null } = { text: null }) {
  const world = new MessagingWorld();
  const company = await world.company();
  const setor = await world.box(company);
  const { uow, counted } = countingUow(world, failFor);
  const receive = new ReceiveInboundMessage(uow, world.clock, world.ids, [], new TicketInboundThreads(world.ids));
  const from = (n: number) => `+55119876500${String(n).padStart(2, '0')}`;
  return { world, company, setor, receive, counted, from };
}

describe('inbound group commit', () => {
  it('messages arriving together share transactions, each answered as if alone (a repeat of a number in the same group joins its ticket)', async () => {
    const { world, setor, receive, counted, from } = await setup();
    const numbers = [1, 2, 3, 4, 5, 6, 7, 8, 3, 3];
    const results = await Promise.all(numbers.map((n, i) => receive.execute({ setorId: setor.id, from: from(n), text: `Oi ${i}` })));
    expect(counted.transactions).toBeLessThan(numbers.length);
    expect(results.map((r) => r.contactCreated)).toEqual([true, true, true, true, true, true, true, true, false, false]);
    expect(results.map((r) => r.ticket?.created)).toEqual([true, true, true, true, true, true, true, true, false, false]);
    const third = results[2]!;
    expect(results[8]).toMatchObject({ contactId: third.contactId, conversationId: third.conversationId, ticket: { id: third.ticket!.id } });
    expect(results[9]).toMatchObject({ contactId: third.contactId, ticket: { id: third.ticket!.id } });
    expect(new Set(results.map((r) => r.ticket!.number)).size).toBe(8);
    expect(world.events('message.received').map((e) => e.data.messageId)).toEqual(results.map((r) => r.messageId));
    expect(world.events('contact.created')).toHaveLength(8);
    expect(world.events('conversation.created')).toHaveLength(8);
    // Tickets opened in a group are inserted together at its end: the answers and the events carry their numbers.
    const created = results.filter((r) => r.ticket!.created);
    expect(world.events('conversation.created').map((e) => [e.data.ticketId, e.data.number])).toEqual(created.map((r) => [r.ticket!.id, r.ticket!.number]));
    for (const r of created) expect((await world.repos.tickets.findById(r.companyId, r.ticket!.id))?.number).toBe(r.ticket!.number);
  });

  it('repeated provider ids in a group are dropped, whether stored before or earlier in the same group; nothing of them is written', async () => {
    const { world, setor, receive, counted, from } = await setup();
    const first = await receive.execute({ setorId: setor.id, from: from(30), text: 'Oi', providerMessageId: 'wamid.30' });
    counted.transactions = 0;
    const inputs = [
      { n: 31, id: 'wamid.31' },
      { n: 32, id: 'wamid.32' },
      { n: 30, id: 'wamid.30' },
      { n: 33, id: 'wamid.33' },
      { n: 33, id: 'wamid.33' },
      { n: 34, id: 'wamid.34' },
    ];
    const results = await Promise.all(inputs.map(({ n, id }) => receive.execute({ setorId: setor.id, from: from(n), text: 'Oi', providerMessageId: id })));
    expect(counted.transactions).toBeLessThan(inputs.length);
    expect(results.map((r) => r.duplicate)).toEqual([false, false, true, false, true, false]);
    expect(results[2]!.messageId).toBe(first.messageId);
    expect(results[4]!.messageId).toBe(results[3]!.messageId);
    expect(world.events('message.received')).toHaveLength(5);
    expect(world.events('contact.created')).toHaveLength(5);
    const stored = (world.repos.messages as unknown as { all(): { providerMessageId: string | null }[] }).all();
    expect(stored.map((m) => m.providerMessageId).sort()).toEqual(['wamid.30', 'wamid.31', 'wamid.32', 'wamid.33', 'wamid.34']);
  });

  it('a message of an unknown box in a group is a 404 for it alone', async () => {
    const { setor, receive, counted, from } = await setup();
    const unknown = '00000000-0000-4000-8000-00000000dead';
    const settled = await Promise.allSettled(
      [setor.id, setor.id, unknown, setor.id].map((setorId, i) => receive.execute({ setorId, from: from(10 + i), text: 'Oi' })),
    );
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((settled[2] as PromiseRejectedResult).reason).toBeInstanceOf(NotFoundError);
    // The first alone (the lane free), the others together: no transaction was run again.
    expect(counted.transactions).toBe(2);
  });

  it('a group whose commit fails is not run again (the commit may have happened): each of its messages gets the error', async () => {
    const world = new MessagingWorld();
    const company = await world.company();
    const setor = await world.box(company);
    let transactions = 0;
    const uow: UnitOfWork<never> = {
      transaction: async (work) => {
        transactions += 1;
        const result = await world.uow.transaction((repos) => work(repos as never));
        if (transactions > 1) throw new Error('connection lost during commit');
        return result;
      },
    };
    const receive = new ReceiveInboundMessage(uow, world.clock, world.ids, [], new TicketInboundThreads(world.ids));
    const settled = await Promise.allSettled([40, 41, 42].map((n) => receive.execute({ setorId: setor.id, from: `+55119876500${n}`, text: 'Oi' })));
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    expect(settled.slice(1).map((s) => ((s as PromiseRejectedResult).reason as Error).message)).toEqual(['connection lost during commit', 'connection lost during commit']);
    expect(transactions).toBe(2);
  });

  it('a failure inside a group rolls the group back and every message runs alone: only the failing one fails, nothing is written twice', async () => {
    const failFor = { text: 'falha' };
    const { world, setor, receive, counted, from } = await setup(failFor);
    const settled = await Promise.allSettled([20, 21, 22, 23, 24, 25].map((n) => receive.execute({ setorId: setor.id, from: from(n), text: n === 24 ? 'falha' : 'Oi' })));
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    // One alone, one group of five that rolled back, then those five alone.
    expect(counted.transactions).toBe(7);
    const stored = settled.filter((s): s is PromiseFulfilledResult<InboundMessageResult> => s.status === 'fulfilled').map((s) => s.value);
    expect(stored.every((r) => r.contactCreated && r.ticket?.created)).toBe(true);
    expect(world.events('message.received').map((e) => e.data.messageId).sort()).toEqual(stored.map((r) => r.messageId).sort());
    expect(world.events('contact.created')).toHaveLength(5);
    expect(new Set(stored.map((r) => r.ticket!.number)).size).toBe(5);
  });

  /** The world's unit of work counting ticket reads and saves; `conflictOnce` makes the first saveAll find a ticket moved on. */
  function ticketCountingUow(world: MessagingWorld, conflictOnce = false) {
    const calls = { findActive: 0, findActiveAll: 0, save: 0, saveAll: 0, transactions: 0 };
    let conflict = conflictOnce;
    const uow: UnitOfWork<never> = {
      transaction: (work) => {
        calls.transactions += 1;
        return world.uow.transaction((repos) => {
          const tickets = Object.create(repos.tickets) as typeof repos.tickets;
          tickets.findActive = (setorId, contactId) => ((calls.findActive += 1), repos.tickets.findActive(setorId, contactId));
          tickets.findActiveAll = (pairs) => ((calls.findActiveAll += 1), repos.tickets.findActiveAll(pairs));
          tickets.save = (ticket, version) => ((calls.save += 1), repos.tickets.save(ticket, version));
          tickets.saveAll = async (saves) => {
            calls.saveAll += 1;
            if (conflict) {
              // Another writer (an agent) moved the first ticket on between the group's read and its save.
              conflict = false;
              const stored = (await repos.tickets.findById(saves[0]!.ticket.companyId, saves[0]!.ticket.id))!;
              await repos.tickets.save({ ...stored, priority: 'urgent', version: stored.version + 1 }, stored.version);
            }
            return repos.tickets.saveAll(saves);
          };
          return work({ ...repos, tickets } as never);
        });
      },
    };
    return { uow, calls };
  }

  it('stored contacts of a group: their active tickets are read in one call and saved in one call, a ticket written twice saved once', async () => {
    const world = new MessagingWorld();
    const company = await world.company();
    const setor = await world.box(company);
    const { uow, calls } = ticketCountingUow(world);
    const receive = new ReceiveInboundMessage(uow, world.clock, world.ids, [], new TicketInboundThreads(world.ids));
    const from = (n: number) => `+55119876501${String(n).padStart(2, '0')}`;
    const firsts = await Promise.all([1, 2, 3, 4].map((n) => receive.execute({ setorId: setor.id, from: from(n), text: `Oi ${n}` })));
    for (const key of Object.keys(calls) as (keyof typeof calls)[]) calls[key] = 0;

    const numbers = [9, 1, 2, 3, 4, 4];
    const results = await Promise.all(numbers.map((n, i) => receive.execute({ setorId: setor.id, from: from(n), text: `De novo ${i}` })));
    // The first alone (the lane free), the others in one group: one read and one save of the four stored contacts' tickets.
    expect(calls).toEqual({ findActive: 0, findActiveAll: 1, save: 0, saveAll: 1, transactions: 2 });
    const ticketOf = new Map(firsts.map((r, i) => [i + 1, r.ticket!]));
    results.slice(1).forEach((r, i) => {
      const n = numbers[i + 1]!;
      expect(r).toMatchObject({ contactCreated: false, ticket: { id: ticketOf.get(n)!.id, number: ticketOf.get(n)!.number, created: false, reopened: false } });
    });
    // Each ticket as its last message left it, its version moved once per message.
    const last = await world.repos.tickets.findById(company.id, ticketOf.get(4)!.id);
    expect(last).toMatchObject({ lastMessage: { id: results[5]!.messageId, preview: 'De novo 5' }, version: 3 });
    const three = await world.repos.tickets.findById(company.id, ticketOf.get(3)!.id);
    expect(three).toMatchObject({ lastMessage: { id: results[3]!.messageId }, version: 2 });
  });

  it('a joined ticket another writer changed before the group saved it: the group rolls back and every message runs alone', async () => {
    const world = new MessagingWorld();
    const company = await world.company();
    const setor = await world.box(company);
    const { uow, calls } = ticketCountingUow(world, true);
    const receive = new ReceiveInboundMessage(uow, world.clock, world.ids, [], new TicketInboundThreads(world.ids));
    const from = (n: number) => `+55119876502${String(n).padStart(2, '0')}`;
    const firsts = await Promise.all([1, 2, 3].map((n) => receive.execute({ setorId: setor.id, from: from(n), text: 'Oi' })));
    calls.transactions = 0;
    const results = await Promise.all([9, 1, 2, 3].map((n) => receive.execute({ setorId: setor.id, from: from(n), text: 'De novo' })));
    // One alone, the group of three rolled back, then those three alone.
    expect(calls.transactions).toBe(5);
    results.slice(1).forEach((r, i) => expect(r.ticket).toMatchObject({ id: firsts[i]!.ticket!.id, created: false }));
    for (const [i, first] of firsts.entries()) {
      const stored = await world.repos.tickets.findById(company.id, first.ticket!.id);
      expect(stored?.lastMessage?.id).toBe(results[i + 1]!.messageId);
    }
    expect(world.events('message.received')).toHaveLength(7);
  });
  it('pipelined: after a group, fewer than half the cycle waiting, the next group waits for the senders to write again (or its hold): halves alternate', async () => {
    const world = new MessagingWorld();
    const company = await world.company();
    const setor = await world.box(company);
    // Each transaction waits for the test to let it run; `sizes` are the answers each released transaction gave.
    const gates: (() => void)[] = [];
    const uow: UnitOfWork<never> = {
      transaction: async (work) => {
        await new Promise<void>((resolve) => gates.push(resolve));
        return world.uow.transaction((repos) => work(repos as never));
      },
    };
    const holds: (() => void)[] = [];
    const sleep = (ms: number) => {
      expect(ms).toBe(2);
      return new Promise<void>((resolve) => holds.push(resolve));
    };
    const receive = new ReceiveInboundMessage(uow, world.clock, world.ids, [], new TicketInboundThreads(world.ids), { maxBatch: 32, concurrency: 1, pipelined: { holdMs: 2, sleep } });
    let answered = 0;
    const send = (n: number) => receive.execute({ setorId: setor.id, from: `+55119876503${String(n).padStart(2, '0')}`, text: 'Oi' }).then((r) => ((answered += 1), r));
    // Everything the released transaction and the answers do runs before the next turn of the event loop (in memory).
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    const release = async () => {
      const before = answered;
      gates.shift()!();
      await settle();
      return answered - before;
    };

    const firstOf = [send(0)];
    await settle();
    const rest = Array.from({ length: 15 }, (_, i) => send(i + 1));
    await settle();
    expect(gates).toHaveLength(1);
    // The first alone, then the fifteen that waited for it together (as without pipelining: a message alone is no group).
    expect(await release()).toBe(1);
    expect(gates).toHaveLength(1);
    const again = [send(0)];
    await settle();
    expect(await release()).toBe(15);
    // One waits, fewer than half of the sixteen: held, no transaction started.
    expect(gates).toHaveLength(0);
    expect(holds).toHaveLength(1);
    for (let i = 1; i <= 6; i += 1) again.push(send(i));
    await settle();
    expect(gates).toHaveLength(0);
    again.push(send(7));
    await settle();
    // Eight wait: the group starts with them; the other eight write meanwhile and wait for it.
    expect(gates).toHaveLength(1);
    for (let i = 8; i <= 15; i += 1) again.push(send(i));
    await settle();
    expect(await release()).toBe(8);
    expect(gates).toHaveLength(1);
    expect(await release()).toBe(8);
    // A hold that nobody ends by writing ends after its time: the one message waiting runs.
    const late = [send(0)];
    for (let i = 1; i <= 3; i += 1) late.push(send(i));
    await settle();
    expect(await release()).toBe(1);
    const last = send(20);
    await settle();
    expect(await release()).toBe(3);
    expect(gates).toHaveLength(0);
    expect(holds).toHaveLength(2);
    holds[1]!();
    await settle();
    expect(await release()).toBe(1);
    // The first hold's time running out later starts nothing.
    holds[0]!();
    await settle();
    expect(gates).toHaveLength(0);

    const results = await Promise.all([...firstOf, ...rest, ...again, ...late, last]);
    expect(results.filter((r) => r.contactCreated)).toHaveLength(17);
    expect(new Set(results.map((r) => r.ticket!.id)).size).toBe(17);
    expect(world.events('message.received')).toHaveLength(results.length);
  });
});
