import { describe, expect, it } from '@jest/globals';
import { InvalidTransitionError } from '../shared/errors.js';
import { ManualClock } from '../shared/testing/manual-clock.js';
import { messageFixture as campaignFixtureMessage } from './testing/campaign-fixtures.js';
import { transition } from '../shared/decider.js';
import { campaignMessageDecider, clientMessageIdOf, publicMessageStatus, settlementDelta } from './campaign-message.js';

const clock = new ManualClock();

describe('campaign message state machine', () => {
  it('given a pending message, when claimed then sent, then it records the sender and time', () => {
    const claimed = transition(campaignMessageDecider, campaignFixtureMessage(), { type: 'claim', at: clock.now(), by: 'lane-1' }).state;
    expect(claimed.status).toBe('enviando');
    expect(publicMessageStatus(claimed.status)).toBe('pendente');
    const sent = transition(campaignMessageDecider, claimed, { type: 'markSent', at: clock.now(), setorId: 's2', providerMessageId: 'p1', sentAt: clock.now() }).state;
    expect(sent).toMatchObject({ status: 'enviado', actualSetorId: 's2', sentAt: clock.now(), claimedBy: null });
  });

  it('given a sent message, when claimed again, then it refuses (a message is sent at most once)', () => {
    const sent = campaignFixtureMessage({ status: 'enviado' });
    expect(() => transition(campaignMessageDecider, sent, { type: 'claim', at: clock.now(), by: 'x' }).state).toThrow(InvalidTransitionError);
  });

  it('given a failed message, when retried twice, then a third manual retry is refused', () => {
    let m = campaignFixtureMessage({ status: 'falha', errorCode: 'TEMP_TIMEOUT', error: 'x' });
    m = transition(campaignMessageDecider, m, { type: 'retry', at: clock.now() }).state;
    expect(m).toMatchObject({ status: 'pendente', manualRetries: 1, errorCode: null });
    m = transition(campaignMessageDecider, { ...m, status: 'falha' }, { type: 'retry', at: clock.now() }).state;
    expect(() => transition(campaignMessageDecider, { ...m, status: 'falha' }, { type: 'retry', at: clock.now() }).state).toThrow(InvalidTransitionError);
  });

  it('given a temporary failure, when requeued automatically, then it counts the retry and waits', () => {
    const claimed = campaignFixtureMessage({ status: 'enviando' });
    const later = new Date(clock.now().getTime() + 60_000);
    const m = transition(campaignMessageDecider, claimed, { type: 'requeue', at: clock.now(), notBefore: later, auto: true }).state;
    expect(m).toMatchObject({ status: 'pendente', autoRetries: 1, notBefore: later });
  });

  it('given a pending message, when reassigned, then was_reassigned is set; only pending messages move', () => {
    const m = transition(campaignMessageDecider, campaignFixtureMessage(), { type: 'reassign', at: clock.now(), setorId: 's2' }).state;
    expect(m).toMatchObject({ setorId: 's2', assignedSetorId: 's1', wasReassigned: true });
    expect(() => transition(campaignMessageDecider, campaignFixtureMessage({ status: 'enviando' }), { type: 'reassign', at: clock.now(), setorId: 's2' }).state).toThrow();
  });

  it('gives each attempt and part its own client message id, the first being the message id', () => {
    expect(clientMessageIdOf({ id: 'm1', attempts: 0 })).toBe('m1');
    expect(clientMessageIdOf({ id: 'm1', attempts: 0 }, 1)).toBe('m1.p1');
    expect(clientMessageIdOf({ id: 'm1', attempts: 2 })).toBe('m1.r2');
  });
});

describe('credit settlement', () => {
  it('refunds failed and skipped messages of charged campaigns, keeps sent ones, charges a retry again', () => {
    expect(settlementDelta('enviando', 'enviado', true)).toEqual({ enviados: 1, falhas: 0, pulados: 0, refund: 0 });
    expect(settlementDelta('enviando', 'falha', true)).toEqual({ enviados: 0, falhas: 1, pulados: 0, refund: 1 });
    expect(settlementDelta('pendente', 'pulado', true)).toEqual({ enviados: 0, falhas: 0, pulados: 1, refund: 1 });
    expect(settlementDelta('falha', 'pendente', true)).toEqual({ enviados: 0, falhas: -1, pulados: 0, refund: -1 });
  });

  it('never moves credits of uncharged campaigns (mensal, unlimited, test keys)', () => {
    expect(settlementDelta('enviando', 'falha', false).refund).toBe(0);
  });
});
