import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { systemActor } from '../shared/domain-event.js';
import { createSetor } from '../setores/index.js';
import { InvalidTransitionError } from '../shared/errors.js';
import { SequentialIds } from '../shared/testing/deterministic.js';
import {
  QR_LIFETIME_SECONDS,
  createChannelInstance,
  channelInstanceDecider,
  instanceDomainEvents,
  InstanceStatuses,
  qrSecondsLeft,
  qrWindowOpen,
  type ChannelInstance,
  type DisconnectReason,
  type InstanceCommand,
  type InstanceStatus,
} from './channel-instance.js';
import { evolveAll } from '../shared/decider.js';

const t0 = Date.parse('2026-01-15T12:00:00.000Z');
const setor = createSetor('setor-1', 'company-1', new Date(t0), { nome: 'Vendas' });

/** A command without its time; the run gives each one an instant after the previous. */
type Step =
  | { type: 'request-qr' }
  | { type: 'observe-session'; status: InstanceStatus; phoneNumber: string | null }
  | { type: 'disconnect'; reason: DisconnectReason };

const phoneArb = fc.option(fc.integer({ min: 10_000_000, max: 99_999_999 }).map((n) => `+55119${n}`), { nil: null });
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.constant<Step>({ type: 'request-qr' }),
  fc.record({ type: fc.constant('observe-session' as const), status: fc.constantFrom(...InstanceStatuses), phoneNumber: phoneArb }),
  fc.record({ type: fc.constant('disconnect' as const), reason: fc.constantFrom<DisconnectReason>('user', 'sender_failure', 'session_lost') }),
);
/** Steps with the milliseconds since the previous one: often inside a QR window, sometimes past it. */
const runArb = fc.array(fc.tuple(stepArb, fc.oneof(fc.integer({ min: 0, max: 5_000 }), fc.integer({ min: 0, max: 3 * QR_LIFETIME_SECONDS * 1000 }))), {
  minLength: 1,
  maxLength: 60,
});

function commandAt(step: Step, at: Date): InstanceCommand {
  return { ...step, at } as InstanceCommand;
}

/** A new instance after every step of `run` it accepts (a refused step leaves it unchanged), and the last step's time. */
function playRun(run: readonly (readonly [Step, number])[]): { instance: ChannelInstance; now: number } {
  let instance = createChannelInstance('instance-1', setor, new Date(t0));
  let now = t0;
  for (const [step, gap] of run) {
    now += gap;
    try {
      instance = evolveAll(channelInstanceDecider, instance, channelInstanceDecider.decide(commandAt(step, new Date(now)), instance));
    } catch {
      // refused steps are checked by the other properties
    }
  }
  return { instance, now };
}

/** What must hold of every state the machine can reach. */
function expectConsistent(instance: ChannelInstance): void {
  if (instance.status === 'connected') {
    // operations.md / messaging-api: phone_number is null until connected, a string once connected.
    expect(instance.phoneNumber).toMatch(/^\+\d{8,15}$/);
    expect(instance.connectedAt).not.toBeNull();
    expect(instance.qrRequestedAt).toBeNull();
  } else {
    expect(instance.phoneNumber).toBeNull();
  }
  if (instance.status === 'connecting') expect(instance.qrRequestedAt).not.toBeNull();
  expect(InstanceStatuses).toContain(instance.status);
}

describe('channel instance state machine (properties)', () => {
  it('every reachable state is consistent: connected always has a phone number, others never do', () => {
    fc.assert(
      fc.property(runArb, (run) => {
        let instance = createChannelInstance('instance-1', setor, new Date(t0));
        let now = t0;
        for (const [step, gap] of run) {
          now += gap;
          const command = commandAt(step, new Date(now));
          let events;
          try {
            events = channelInstanceDecider.decide(command, instance);
          } catch (error) {
            // The only refusal: a QR code for a connected session, naming the allowed states.
            expect(error).toBeInstanceOf(InvalidTransitionError);
            expect(command.type).toBe('request-qr');
            expect((error as InvalidTransitionError).details).toEqual({ status: 'connected', allowed: ['disconnected', 'connecting'] });
            continue;
          }
          const before = structuredClone(instance);
          const next = evolveAll(channelInstanceDecider, instance, events);
          expect(instance).toEqual(before); // evolve never mutates its input
          if (events.length > 0) expect(next.updatedAt.getTime()).toBe(now);
          else expect(next).toEqual(instance); // a command that changes nothing leaves the state as it was
          instance = next;
          expectConsistent(instance);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('refuses a QR request exactly when connected, and leaves the instance unchanged', () => {
    fc.assert(
      fc.property(runArb, fc.integer({ min: 0, max: 200_000 }), (run, gap) => {
        const { instance, now } = playRun(run);
        const at = new Date(now + gap);
        const snapshot = structuredClone(instance);
        if (instance.status === 'connected') {
          expect(() => channelInstanceDecider.decide({ type: 'request-qr', at }, instance)).toThrow(InvalidTransitionError);
        } else {
          const events = channelInstanceDecider.decide({ type: 'request-qr', at }, instance);
          // Within the window the same code is shown again (no event); after it a new window opens.
          expect(events).toEqual(qrWindowOpen(instance, at) ? [] : [{ type: 'qr-requested', at }]);
          expect(qrSecondsLeft(evolveAll(channelInstanceDecider, instance, events), at)).toBeGreaterThan(0);
        }
        expect(instance).toEqual(snapshot);
      }),
      { numRuns: 300 },
    );
  });

  it('a disconnect always ends disconnected without phone or QR window, and only a connected session announces its end', () => {
    fc.assert(
      fc.property(runArb, fc.constantFrom<DisconnectReason>('user', 'sender_failure', 'session_lost'), (run, reason) => {
        const { instance, now } = playRun(run);
        const at = new Date(now + 1);
        const events = channelInstanceDecider.decide({ type: 'disconnect', at, reason }, instance);
        const after = evolveAll(channelInstanceDecider, instance, events);
        expect(after).toMatchObject({ status: 'disconnected', phoneNumber: null, qrRequestedAt: null });
        const announced = instanceDomainEvents(instance, events, new SequentialIds(), systemActor).map((e) => e.event);
        expect(announced).toEqual(instance.status === 'connected' ? ['channel.session_disconnected'] : []);
        // Disconnecting again changes nothing.
        expect(channelInstanceDecider.decide({ type: 'disconnect', at, reason }, after)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('never adopts a session nobody asked for: a disconnected box with no QR request stays disconnected whatever the provider reports', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ status: fc.constantFrom(...InstanceStatuses), phoneNumber: phoneArb }), { maxLength: 20 }), (reports) => {
        const instance = createChannelInstance('instance-1', setor, new Date(t0));
        for (const [i, report] of reports.entries()) {
          expect(channelInstanceDecider.decide({ type: 'observe-session', at: new Date(t0 + i), ...report }, instance)).toEqual([]);
        }
      }),
    );
  });
});
