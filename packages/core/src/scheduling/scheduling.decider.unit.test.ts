import { describe, expect, it } from '@jest/globals';
import { DomainError, InvalidTransitionError } from '../shared/errors.js';
import { given } from '../testing/index.js';
import { appointmentDecider, type Appointment } from './appointment.js';
import { scheduledMessageDecider, timedClientMessageId, type ScheduledMessage } from './scheduled-message.js';
import { timedMessageFixture } from './testing/timed-send-fixture.js';

const t0 = new Date('2026-03-10T12:00:00.000Z');
const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);

const row = (extra: Partial<ScheduledMessage> = {}): ScheduledMessage => ({
  ...timedMessageFixture({ id: 'm1', companyId: 'c1', clientId: 'k1', setorId: 's1' }, t0),
  ...extra,
});
const delays = [60_000, 300_000, 900_000];

describe('scheduled message decider', () => {
  it('given scheduled, when claimed, then sending with one attempt more and the row id as client id', () => {
    const state = given(scheduledMessageDecider, row()).when({ type: 'claim', at: t0, owner: 'lane-1' }).then([{ type: 'claimed', at: t0, owner: 'lane-1' }]);
    expect(state).toMatchObject({ status: 'sending', attempts: 1, claimedBy: 'lane-1' });
    expect(timedClientMessageId(state)).toBe('m1');
  });

  it('given sending, when a temporary failure is recorded, then back to scheduled at +1 minute, then +5, +15, then failed', () => {
    let state = row({ status: 'sending', attempts: 1, claimedBy: 'lane-1', claimedAt: t0 });
    for (const [n, delay] of delays.entries()) {
      state = given(scheduledMessageDecider, state)
        .when({ type: 'markFailed', at: t0, code: 'TEMP_NETWORK', error: 'reset', retryDelaysMs: delays })
        .then([{ type: 'retryScheduled', at: t0, until: new Date(t0.getTime() + delay), code: 'TEMP_NETWORK', error: 'reset' }]);
      expect(state).toMatchObject({ status: 'scheduled', waitingReason: 'retry', claimedBy: null });
      state = given(scheduledMessageDecider, state).when({ type: 'claim', at: t0, owner: 'lane-1' }).then([{ type: 'claimed', at: t0, owner: 'lane-1' }]);
      expect(timedClientMessageId(state)).toBe(`m1.r${n + 1}`);
    }
    given(scheduledMessageDecider, state)
      .when({ type: 'markFailed', at: t0, code: 'SENDER_DISCONNECTED', error: 'gone', retryDelaysMs: delays })
      .then([{ type: 'failed', at: t0, code: 'SENDER_DISCONNECTED', error: 'gone' }]);
  });

  it('given sending, when a permanent failure is recorded, then failed at once', () => {
    given(scheduledMessageDecider, row({ status: 'sending', attempts: 1 }))
      .when({ type: 'markFailed', at: t0, code: 'RECIP_INVALID', error: 'no', retryDelaysMs: delays })
      .then([{ type: 'failed', at: t0, code: 'RECIP_INVALID', error: 'no' }]);
  });

  it('cancel: scheduled is cancelled, a repeat changes nothing, a claimed or sent one is 409 CONFLICT with its status', () => {
    const cancelled = given(scheduledMessageDecider, row()).when({ type: 'cancel', at: at(1) }).then([{ type: 'cancelled', at: at(1) }]);
    given(scheduledMessageDecider, cancelled).when({ type: 'cancel', at: at(2) }).then([]);
    for (const status of ['sending', 'sent', 'failed'] as const) {
      given(scheduledMessageDecider, row({ status })).when({ type: 'cancel', at: at(1) }).thenThrows(DomainError);
      expect(() => scheduledMessageDecider.decide({ type: 'cancel', at: at(1) }, row({ status }))).toThrow(expect.objectContaining({ code: 'CONFLICT', details: { status } }));
    }
  });

  it('a deferral of a claim gives its attempt back; settling needs a claim; a take-over by the same run changes nothing', () => {
    const deferred = given(scheduledMessageDecider, row({ status: 'sending', attempts: 1, claimedBy: 'lane-1' }))
      .when({ type: 'defer', at: t0, until: at(600), reason: 'outside_safe_hours' })
      .then([{ type: 'deferred', at: t0, until: at(600), reason: 'outside_safe_hours' }]);
    expect(deferred).toMatchObject({ status: 'scheduled', attempts: 0, effectiveSendAt: at(600), waitingReason: 'outside_safe_hours' });
    given(scheduledMessageDecider, row()).when({ type: 'markSent', at: t0, messageId: 'p', sentAt: t0 }).thenThrows(InvalidTransitionError);
    given(scheduledMessageDecider, row({ status: 'sending', claimedBy: 'lane-1' })).when({ type: 'takeOver', at: t0, owner: 'lane-1' }).then([]);
    given(scheduledMessageDecider, row({ status: 'sending', claimedBy: 'dead' })).when({ type: 'takeOver', at: t0, owner: 'lane-2' }).then([{ type: 'takenOver', at: t0, owner: 'lane-2' }]);
  });
});

const appointment = (extra: Partial<Appointment> = {}): Appointment => ({
  id: 'a1',
  companyId: 'c1',
  appointmentTypeId: 't1',
  professionalId: 'p1',
  unitId: 'u1',
  clientId: 'k1',
  clientName: 'Ana',
  clientPhone: '+5511987654321',
  startsAt: at(60),
  endsAt: at(90),
  timezone: 'America/Manaus',
  status: 'scheduled',
  description: null,
  ticketId: null,
  setorId: null,
  keyMode: 'live',
  confirmedAt: null,
  cancelledAt: null,
  cancelReason: null,
  cancelledBy: null,
  history: [],
  createdAt: t0,
  updatedAt: t0,
  ...extra,
});

describe('appointment decider', () => {
  it('scheduled → confirmed (a repeat changes nothing) → scheduled again by a reschedule', () => {
    const confirmed = given(appointmentDecider, appointment()).when({ type: 'confirm', at: t0, actor: 'contact' }).then([{ type: 'confirmed', at: t0, actor: 'contact' }]);
    expect(confirmed.history.at(-1)).toMatchObject({ action: 'confirmed', actor: 'contact' });
    given(appointmentDecider, confirmed).when({ type: 'confirm', at: t0, actor: 'api' }).then([]);
    const moved = given(appointmentDecider, confirmed)
      .when({ type: 'reschedule', at: t0, actor: 'api', startsAt: at(120), endsAt: at(150), professionalId: 'p2', unitId: 'u1', timezone: 'America/Manaus' })
      .then([{ type: 'rescheduled', at: t0, actor: 'api', startsAt: at(120), endsAt: at(150), professionalId: 'p2', unitId: 'u1', timezone: 'America/Manaus' }]);
    expect(moved).toMatchObject({ status: 'scheduled', confirmedAt: null, professionalId: 'p2' });
  });

  it('cancel is final: a repeat changes nothing, nothing else moves it', () => {
    const cancelled = given(appointmentDecider, appointment()).when({ type: 'cancel', at: t0, actor: 'api', reason: 'x' }).then([{ type: 'cancelled', at: t0, actor: 'api', reason: 'x' }]);
    given(appointmentDecider, cancelled).when({ type: 'cancel', at: t0, actor: 'api', reason: 'y' }).then([]);
    given(appointmentDecider, cancelled).when({ type: 'confirm', at: t0, actor: 'api' }).thenThrows(InvalidTransitionError);
    given(appointmentDecider, cancelled).when({ type: 'reschedule', at: t0, actor: 'api', startsAt: at(120), endsAt: at(150), professionalId: 'p1', unitId: 'u1', timezone: 'UTC' }).thenThrows(InvalidTransitionError);
  });

  it('attendance only from the start on, and correctable', () => {
    given(appointmentDecider, appointment()).when({ type: 'markAttendance', at: at(59), actor: 'api', attendance: 'attended' }).thenThrows(InvalidTransitionError);
    const attended = given(appointmentDecider, appointment()).when({ type: 'markAttendance', at: at(60), actor: 'api', attendance: 'attended' }).then([{ type: 'attendanceMarked', at: at(60), actor: 'api', attendance: 'attended' }]);
    given(appointmentDecider, attended).when({ type: 'markAttendance', at: at(70), actor: 'api', attendance: 'no_show' }).then([{ type: 'attendanceMarked', at: at(70), actor: 'api', attendance: 'no_show' }]);
  });
});
