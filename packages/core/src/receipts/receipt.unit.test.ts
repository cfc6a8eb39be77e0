import { describe, expect, it } from '@jest/globals';
import { InMemoryUnitOfWork } from '../testing/in-memory-unit-of-work.js';
import { ManualClock } from '../shared/testing/manual-clock.js';
import { SequentialIds } from '../shared/testing/deterministic.js';
import type { CampaignMessage, MessageRecord, SimulatedMessage } from '../index.js';
import { advanceReceipt } from './receipt.js';
import { DeliverSimulatedReceipts, RecordReceipt, recordReceiptsWithin, SIMULATED_RECEIPT_GIVE_UP_MS } from './record-receipt.js';

const T0 = new Date('2026-01-15T12:00:00.000Z');
const later = (ms: number) => new Date(T0.getTime() + ms);

describe('advanceReceipt', () => {
  const sent = { status: 'sent' as const, deliveredAt: null, readAt: null };

  it('moves sent to delivered, then to read, each once', () => {
    const delivered = advanceReceipt(sent, 'delivered', later(1));
    expect(delivered).toEqual({ deliveredAt: later(1), readAt: null, emitted: ['delivered'] });
    const read = advanceReceipt({ status: 'sent', ...delivered }, 'read', later(2));
    expect(read).toEqual({ deliveredAt: later(1), readAt: later(2), emitted: ['read'] });
    expect(advanceReceipt({ status: 'sent', ...read }, 'read', later(3)).emitted).toEqual([]);
  });

  it('a read first records both delivered and read', () => {
    expect(advanceReceipt(sent, 'read', later(5))).toEqual({ deliveredAt: later(5), readAt: later(5), emitted: ['delivered', 'read'] });
  });

  it('never moves backwards: a delivered receipt after read changes nothing', () => {
    const state = { status: 'sent' as const, deliveredAt: later(1), readAt: later(2) };
    expect(advanceReceipt(state, 'delivered', later(3))).toEqual({ deliveredAt: later(1), readAt: later(2), emitted: [] });
  });

  it('a failed message is final, an unsent one does not move, a failed receipt undoes nothing', () => {
    expect(advanceReceipt({ ...sent, status: 'failed' }, 'read', later(1)).emitted).toEqual([]);
    expect(advanceReceipt({ ...sent, status: 'pending' }, 'delivered', later(1)).emitted).toEqual([]);
    expect(advanceReceipt(sent, 'failed', later(1))).toEqual({ deliveredAt: null, readAt: null, emitted: [] });
  });

  it('a read never precedes its delivery', () => {
    const state = { status: 'sent' as const, deliveredAt: later(10), readAt: null };
    expect(advanceReceipt(state, 'read', later(5)).readAt).toEqual(later(10));
  });
});

function world() {
  const uow = new InMemoryUnitOfWork();
  const clock = new ManualClock(T0);
  const ids = new SequentialIds();
  const messages = uow.store.table('messages', () => new Map<string, MessageRecord>());
  const campaignMessages = uow.store.table('campaignMessages', () => new Map<string, CampaignMessage>());
  const single = {
    id: 'msg-1',
    companyId: 'co-1',
    conversationId: 'conv-1',
    setorId: 'setor-1',
    contactId: 'contact-1',
    phone: '+5511987650000',
    senderNumber: null,
    keyMode: 'live',
    content: { type: 'text', text: 'Oi' },
    parts: [],
    status: 'sent',
    providerMessageId: 'wamid.single',
    errorCode: null,
    error: null,
    reaction: null,
    editedAt: null,
    deletedAt: null,
    sentAt: T0,
    createdAt: T0,
    updatedAt: T0,
  } as unknown as MessageRecord;
  messages.set(single.id, single);
  campaignMessages.set('cm-1', {
    id: 'cm-1',
    campaignId: 'camp-1',
    companyId: 'co-1',
    phone: '+5511987651111',
    status: 'enviado',
    setorId: 'setor-1',
    actualSetorId: 'setor-2',
    providerMessageId: 'wamid.campaign',
  } as unknown as CampaignMessage);
  return { uow, clock, ids, record: new RecordReceipt(uow, clock, ids), messages, campaignMessages };
}

describe('RecordReceipt', () => {
  it('a read of a single send emits message.delivered then message.read once, with the contract data', async () => {
    const w = world();
    const outcome = await w.record.execute({ providerMessageId: 'wamid.single', setorId: 'setor-1' }, 'read');
    expect(outcome).toMatchObject({ found: true, kind: 'message', messageId: 'msg-1', emitted: ['delivered', 'read'] });
    expect(w.messages.get('msg-1')).toMatchObject({ status: 'read', deliveredAt: T0, readAt: T0 });
    const events = w.uow.store.events;
    expect(events.map((e) => e.event)).toEqual(['message.delivered', 'message.read']);
    expect(events[0]!.data).toEqual({
      messageId: 'msg-1',
      campaignId: null,
      detailId: 'msg-1',
      conversationId: 'conv-1',
      ticketId: null,
      recipientPhone: '+5511987650000',
      providerMessageId: 'wamid.single',
      actual_setor_id: 'setor-1',
      status: 'delivered',
      deliveredAt: T0.toISOString(),
    });
    expect(events[1]!.data).toMatchObject({ status: 'read', readAt: T0.toISOString() });
    // Repeats and backward moves change nothing.
    await w.record.execute({ providerMessageId: 'wamid.single' }, 'delivered');
    await w.record.execute({ providerMessageId: 'wamid.single' }, 'read');
    expect(w.uow.store.events).toHaveLength(2);
  });

  it('campaign messages get receipts with messageId null, on the box that sent them', async () => {
    const w = world();
    expect((await w.record.execute({ providerMessageId: 'wamid.campaign', setorId: 'setor-1' }, 'delivered')).found).toBe(false);
    const outcome = await w.record.execute({ providerMessageId: 'wamid.campaign', setorId: 'setor-2' }, 'delivered');
    expect(outcome).toMatchObject({ found: true, kind: 'campaign_message', emitted: ['delivered'] });
    expect(w.campaignMessages.get('cm-1')).toMatchObject({ status: 'enviado', deliveredAt: T0 });
    expect(w.uow.store.events[0]).toMatchObject({
      event: 'message.delivered',
      setorId: 'setor-2',
      data: { messageId: null, campaignId: 'camp-1', detailId: 'cm-1', conversationId: null, actual_setor_id: 'setor-2' },
    });
  });

  it('an unknown provider id is ignored', async () => {
    const w = world();
    expect(await w.record.execute({ providerMessageId: 'wamid.other' }, 'read')).toMatchObject({ found: false, emitted: [] });
    expect(w.uow.store.events).toEqual([]);
  });
});

describe('recordReceiptsWithin', () => {
  it('applies a batch in order: a message named twice moves from what the first receipt left, each event once', async () => {
    const w = world();
    w.messages.get('msg-1')!.providerMessageId = 'wamid.1';
    const outcomes = await w.uow.transaction((repos) =>
      recordReceiptsWithin(repos, w.ids, [
        { lookup: { providerMessageId: 'wamid.1' }, status: 'delivered', at: later(1) },
        { lookup: { providerMessageId: 'wamid.other' }, status: 'delivered', at: later(1) },
        { lookup: { messageId: 'msg-1' }, status: 'read', at: later(2) },
        { lookup: { providerMessageId: 'wamid.1' }, status: 'delivered', at: later(3) },
      ]),
    );
    expect(outcomes.map((o) => [o.found, o.emitted])).toEqual([
      [true, ['delivered']],
      [false, []],
      [true, ['read']],
      [true, []],
    ]);
    expect(w.messages.get('msg-1')).toMatchObject({ status: 'read', deliveredAt: later(1), readAt: later(2) });
    expect(w.uow.store.events.map((e) => e.event)).toEqual(['message.delivered', 'message.read']);
  });
});

describe('DeliverSimulatedReceipts', () => {
  function simulated(w: ReturnType<typeof world>, id: string, sentAt: Date, extra: Partial<SimulatedMessage> = {}) {
    w.uow.store.table('simulatorMessages', () => [] as SimulatedMessage[]).push({ id, setorId: 'setor-1', outcome: 'sent', payload: {}, sentAt, ...extra } as SimulatedMessage);
  }

  it('turns simulated sends delivered once the delay has passed, once each', async () => {
    const w = world();
    w.messages.get('msg-1')!.providerMessageId = 'sim-1';
    simulated(w, 'sim-1', T0);
    const sweeper = new DeliverSimulatedReceipts(w.uow, w.clock, w.ids);
    w.clock.advance(999);
    expect(await sweeper.sweep(1000)).toBe(0);
    w.clock.advance(1);
    expect(await sweeper.sweep(1000)).toBe(1);
    expect(w.messages.get('msg-1')).toMatchObject({ status: 'delivered', deliveredAt: later(1000) });
    expect(await sweeper.sweep(1000)).toBe(0);
    expect(w.uow.store.events.map((e) => e.event)).toEqual(['message.delivered']);
  });

  it('a delay of 0 never delivers; a send without a record waits, then is given up', async () => {
    const w = world();
    simulated(w, 'sim-unknown', T0);
    const sweeper = new DeliverSimulatedReceipts(w.uow, w.clock, w.ids);
    w.clock.advance(2000);
    expect(await sweeper.sweep(0)).toBe(0);
    expect(await sweeper.sweep(1000)).toBe(0);
    expect(w.uow.store.table('simulatorReceiptsDone', () => new Set<string>()).has('sim-unknown')).toBe(false);
    w.clock.advance(SIMULATED_RECEIPT_GIVE_UP_MS);
    await sweeper.sweep(1000);
    expect(w.uow.store.table('simulatorReceiptsDone', () => new Set<string>()).has('sim-unknown')).toBe(true);
  });
});
