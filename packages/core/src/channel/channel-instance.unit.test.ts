import { describe, expect, it } from '@jest/globals';
import { createSetor } from '../setores/index.js';
import { InvalidTransitionError } from '../shared/errors.js';
import { ManualClock } from '../shared/testing/manual-clock.js';
import { SequentialIds } from '../shared/testing/deterministic.js';
import { systemActor } from '../shared/domain-event.js';
import {
  createChannelInstance,
  channelInstanceDecider,
  instanceDomainEvents,
  qrSecondsLeft,
  type ChannelInstance,
  type InstanceCommand,
} from './channel-instance.js';
import { evolveAll } from '../shared/decider.js';

const clock = new ManualClock('2026-01-15T12:00:00.000Z');
const setor = createSetor('setor-1', 'company-1', clock.now(), { nome: 'Vendas' });
const fresh = () => createChannelInstance('instance-1', setor, clock.now());
const run = (instance: ChannelInstance, command: InstanceCommand) => {
  const events = channelInstanceDecider.decide(command, instance);
  return { events, instance: evolveAll(channelInstanceDecider, instance, events) };
};

describe('channel instance state machine', () => {
  it('starts disconnected, without phone or QR', () => {
    const instance = fresh();
    expect(instance).toMatchObject({ status: 'disconnected', phoneNumber: null, qrRequestedAt: null, companyId: 'company-1' });
  });

  it('opens a 60-second QR window on the first request and keeps it on later requests within it', () => {
    const t0 = clock.now();
    const first = run(fresh(), { type: 'request-qr', at: t0 });
    expect(first.events).toEqual([{ type: 'qr-requested', at: t0 }]);
    expect(qrSecondsLeft(first.instance, t0)).toBe(60);

    const later = new Date(t0.getTime() + 45_500);
    expect(run(first.instance, { type: 'request-qr', at: later }).events).toEqual([]);
    expect(qrSecondsLeft(first.instance, later)).toBe(15);

    const expired = new Date(t0.getTime() + 60_000);
    const renewed = run(first.instance, { type: 'request-qr', at: expired });
    expect(renewed.events).toEqual([{ type: 'qr-requested', at: expired }]);
    expect(renewed.instance.qrRequestedAt).toEqual(expired);
  });

  it('moves to connecting when the phone scans and to connected with the number', () => {
    const t0 = clock.now();
    const asked = run(fresh(), { type: 'request-qr', at: t0 }).instance;
    const scanning = run(asked, { type: 'observe-session', at: t0, status: 'connecting', phoneNumber: null });
    expect(scanning.instance.status).toBe('connecting');
    const done = run(scanning.instance, { type: 'observe-session', at: t0, status: 'connected', phoneNumber: '+5511987654321' });
    expect(done.instance).toMatchObject({ status: 'connected', phoneNumber: '+5511987654321', connectedAt: t0, qrRequestedAt: null });
    expect(run(done.instance, { type: 'observe-session', at: t0, status: 'connected', phoneNumber: '+5511987654321' }).events).toEqual([]);
  });

  it('does not adopt a session nobody asked for', () => {
    expect(channelInstanceDecider.decide({ type: 'observe-session', at: clock.now(), status: 'connected', phoneNumber: '+5511987654321' }, fresh())).toEqual([]);
    expect(channelInstanceDecider.decide({ type: 'observe-session', at: clock.now(), status: 'connecting', phoneNumber: null }, fresh())).toEqual([]);
  });

  it('refuses a QR code for a connected instance', () => {
    const connected = { ...fresh(), status: 'connected' as const, phoneNumber: '+5511987654321' };
    expect(() => channelInstanceDecider.decide({ type: 'request-qr', at: clock.now() }, connected)).toThrow(InvalidTransitionError);
    try {
      channelInstanceDecider.decide({ type: 'request-qr', at: clock.now() }, connected);
    } catch (error) {
      expect((error as InvalidTransitionError).details).toEqual({ status: 'connected', allowed: ['disconnected', 'connecting'] });
    }
  });

  it('goes back to disconnected on a disconnect, a ban or a lost session, and forgets the number', () => {
    const connected = { ...fresh(), status: 'connected' as const, phoneNumber: '+5511987654321' };
    const at = clock.now();
    const byUser = run(connected, { type: 'disconnect', at, reason: 'user' });
    expect(byUser.instance).toMatchObject({ status: 'disconnected', phoneNumber: null, disconnectedAt: at });
    const banned = run(connected, { type: 'disconnect', at, reason: 'sender_failure', code: 'SENDER_BANNED', error: 'banned' });
    expect(banned.events[0]).toMatchObject({ type: 'disconnected', reason: 'sender_failure', code: 'SENDER_BANNED', previousStatus: 'connected' });
    const lost = run(connected, { type: 'observe-session', at, status: 'disconnected', phoneNumber: null });
    expect(lost.events[0]).toMatchObject({ type: 'disconnected', reason: 'session_lost' });
    // A reconnecting session is kept: health reports it instead.
    expect(channelInstanceDecider.decide({ type: 'observe-session', at, status: 'connecting', phoneNumber: null }, connected)).toEqual([]);
  });

  it('treats a disconnect of a disconnected instance as done, but cancels a pending QR', () => {
    expect(channelInstanceDecider.decide({ type: 'disconnect', at: clock.now(), reason: 'user' }, fresh())).toEqual([]);
    const asked = run(fresh(), { type: 'request-qr', at: clock.now() }).instance;
    const cancelled = run(asked, { type: 'disconnect', at: clock.now(), reason: 'user' });
    expect(cancelled.instance.qrRequestedAt).toBeNull();
  });

  it('names the webhook events: connected, and disconnected only for a session that was connected', () => {
    const ids = new SequentialIds();
    const at = clock.now();
    const asked = run(fresh(), { type: 'request-qr', at }).instance;
    const connectedEvents = channelInstanceDecider.decide({ type: 'observe-session', at, status: 'connected', phoneNumber: '+5511987654321' }, asked);
    expect(instanceDomainEvents(asked, connectedEvents, ids, systemActor)).toEqual([
      expect.objectContaining({
        event: 'channel.session_connected',
        companyId: 'company-1',
        setorId: 'setor-1',
        data: { instanceId: 'instance-1', setorId: 'setor-1', phoneNumber: '+5511987654321' },
      }),
    ]);
    const connected = evolveAll(channelInstanceDecider, asked, connectedEvents);
    const banned = channelInstanceDecider.decide({ type: 'disconnect', at, reason: 'sender_failure', code: 'SENDER_BANNED', error: 'x' }, connected);
    expect(instanceDomainEvents(connected, banned, ids, systemActor)[0]).toMatchObject({
      event: 'channel.session_disconnected',
      data: { phoneNumber: '+5511987654321', reason: 'sender_failure', error_code: 'SENDER_BANNED' },
    });
    const scanning = run(asked, { type: 'observe-session', at, status: 'connecting', phoneNumber: null }).instance;
    const failedPairing = channelInstanceDecider.decide({ type: 'observe-session', at, status: 'disconnected', phoneNumber: null }, scanning);
    expect(instanceDomainEvents(scanning, failedPairing, ids, systemActor)).toEqual([]);
  });
});
