import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { InvalidTransitionError } from '../shared/errors.js';
import { messageFixture } from './testing/campaign-fixtures.js';
import { progressOf, type CampaignTotals } from './campaign.js';
import {
  CampaignMessageTransitions,
  MAX_MANUAL_RETRIES,
  publicMessageStatus,
  settlementDelta,
  campaignMessageDecider,
  type CampaignMessage,
  type CampaignMessageCommand,
  type CampaignMessageStatus,
} from './campaign-message.js';
import { transition } from '../shared/decider.js';
import type { Untimed } from '../shared/testing/decider-spec.js';

const t0 = Date.parse('2026-01-15T12:00:00.000Z');
const SETORES = ['s1', 's2', 's3'];

/** From docs/campaigns.md: where each command may leave from and where it goes (reassign keeps the status). */
const documented: Record<CampaignMessageCommand['type'], { from: CampaignMessageStatus[]; to: CampaignMessageStatus | 'same' }> = {
  claim: { from: ['pendente'], to: 'enviando' },
  markSent: { from: ['enviando'], to: 'enviado' },
  markFailed: { from: ['enviando'], to: 'falha' },
  requeue: { from: ['enviando'], to: 'pendente' },
  skip: { from: ['pendente', 'enviando'], to: 'pulado' },
  retry: { from: ['falha'], to: 'pendente' },
  reassign: { from: ['pendente'], to: 'same' },
};

const commandArb: fc.Arbitrary<Untimed<CampaignMessageCommand>> = fc.oneof(
  fc.constantFrom('lane-a', 'lane-b').map((by): Untimed<CampaignMessageCommand> => ({ type: 'claim', by })),
  fc.constantFrom(...SETORES).map((setorId): Untimed<CampaignMessageCommand> => ({ type: 'markSent', setorId, providerMessageId: 'p1', sentAt: new Date(t0) })),
  fc
    .constantFrom('RECIP_BLOCKED', 'TEMP_TIMEOUT', 'SENDER_BANNED')
    .map((code): Untimed<CampaignMessageCommand> => ({ type: 'markFailed', setorId: 's1', code: code as never, error: code })),
  fc.boolean().map((auto): Untimed<CampaignMessageCommand> => ({ type: 'requeue', notBefore: null, auto })),
  fc
    .constantFrom('warming_daily_limit', 'cancelled_by_user', 'no_sender_available')
    .map((reason): Untimed<CampaignMessageCommand> => ({ type: 'skip', reason: reason as never, code: null, error: null })),
  fc.constant<Untimed<CampaignMessageCommand>>({ type: 'retry' }),
  fc.constantFrom(...SETORES).map((setorId): Untimed<CampaignMessageCommand> => ({ type: 'reassign', setorId })),
);

/** Applies a command if allowed; checks the refusal otherwise. Returns the next message. */
function step(message: CampaignMessage, command: Untimed<CampaignMessageCommand>, at: Date): CampaignMessage {
  const before = structuredClone(message);
  try {
    const next = transition(campaignMessageDecider, message, { ...command, at } as CampaignMessageCommand).state;
    expect(documented[command.type].from).toContain(message.status);
    const to = documented[command.type].to;
    expect(next.status).toBe(to === 'same' ? message.status : to);
    expect(next.updatedAt).toEqual(at);
    expect(message).toEqual(before); // never mutates its input
    return next;
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidTransitionError);
    const details = (error as InvalidTransitionError).details;
    if (command.type === 'retry' && message.status === 'falha') {
      // Allowed status, but the manual retries are used up.
      expect(message.manualRetries).toBeGreaterThanOrEqual(MAX_MANUAL_RETRIES);
      expect(details).toEqual({ status: 'falha (manual retries exhausted)', allowed: [] });
    } else {
      expect(documented[command.type].from).not.toContain(message.status);
      expect(details).toEqual({ status: message.status, allowed: documented[command.type].from });
    }
    expect(message).toEqual(before);
    return message;
  }
}

function expectConsistent(message: CampaignMessage): void {
  // Only a claimed message names its lane (the fencing token).
  expect(message.claimedBy !== null).toBe(message.status === 'enviando');
  if (message.status === 'enviado') expect(message).toMatchObject({ actualSetorId: expect.any(String), error: null, errorCode: null });
  if (message.status === 'falha') expect(message.errorCode).not.toBeNull();
  if (message.status === 'pulado') expect(message.skipReason).not.toBeNull();
  if (message.setorId !== message.assignedSetorId) expect(message.wasReassigned).toBe(true);
  expect(message.manualRetries).toBeLessThanOrEqual(MAX_MANUAL_RETRIES);
  expect(publicMessageStatus(message.status)).not.toBe('enviando');
}

describe('campaign message state machine (properties)', () => {
  it('the allowed moves are the documented ones', () => {
    for (const [type, { from }] of Object.entries(documented)) {
      expect(CampaignMessageTransitions[type as CampaignMessageCommand['type']]).toEqual(from);
    }
  });

  it('random command sequences: documented moves only, refusals change nothing and name the allowed states, sent and skipped stay so', () => {
    fc.assert(
      fc.property(fc.array(commandArb, { maxLength: 60 }), (commands) => {
        let message = messageFixture();
        let autoRetries = 0;
        let wasReassigned = false;
        for (const [i, command] of commands.entries()) {
          const previous = message;
          message = step(message, command, new Date(t0 + i + 1));
          expectConsistent(message);
          // Terminal: nothing moves a sent or skipped message.
          if (previous.status === 'enviado' || previous.status === 'pulado') expect(message).toBe(previous);
          if (message !== previous && command.type === 'requeue' && command.auto) autoRetries += 1;
          expect(message.autoRetries).toBe(autoRetries);
          // Reassignment is remembered.
          if (wasReassigned) expect(message.wasReassigned).toBe(true);
          wasReassigned = message.wasReassigned;
        }
      }),
      { numRuns: 500 },
    );
  });

  it('a campaign of many messages: counters from the settlement deltas always add up, credits held match the messages that keep them, progress is 100 only when all settle', () => {
    const messagesArb = fc.integer({ min: 1, max: 12 });
    const stepsArb = fc.array(fc.tuple(fc.nat(), commandArb), { maxLength: 200 });
    fc.assert(
      fc.property(messagesArb, stepsArb, fc.boolean(), (count, steps, chargesCredits) => {
        let messages = Array.from({ length: count }, (_, i) => messageFixture({ id: `m${i}`, seq: i }));
        const totals: CampaignTotals = { total: count, enviados: 0, falhas: 0, pulados: 0 };
        // One unit reserved per recipient at creation; refunds give back, a manual retry takes again.
        let creditsHeld = chargesCredits ? count : 0;
        let t = t0;
        let retried = false;
        let lastProgress = 0;
        for (const [pick, command] of steps) {
          const index = pick % count;
          const message = messages[index]!;
          const next = step(message, command, new Date((t += 1)));
          if (next !== message) {
            const delta = settlementDelta(message.status, next.status, chargesCredits);
            totals.enviados += delta.enviados;
            totals.falhas += delta.falhas;
            totals.pulados += delta.pulados;
            creditsHeld -= delta.refund;
            if (command.type === 'retry') retried = true;
            messages = messages.map((m, i) => (i === index ? next : m));
          }
          const by = (status: CampaignMessageStatus) => messages.filter((m) => m.status === status).length;
          expect(totals).toEqual({ total: count, enviados: by('enviado'), falhas: by('falha'), pulados: by('pulado') });
          expect(creditsHeld).toBe(chargesCredits ? count - by('falha') - by('pulado') : 0);
          const progress = progressOf(totals);
          expect(progress === 100).toBe(by('pendente') + by('enviando') === 0);
          // Only a manual retry (falha → pendente) may take progress back.
          if (!retried) expect(progress).toBeGreaterThanOrEqual(lastProgress);
          lastProgress = progress;
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a failed message is retried by hand at most twice, each retry clearing the failure', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), (rounds) => {
        let message = messageFixture();
        let retries = 0;
        for (let r = 0; r < rounds; r += 1) {
          message = transition(campaignMessageDecider, message, { type: 'claim', at: new Date(t0), by: 'lane' }).state;
          message = transition(campaignMessageDecider, message, { type: 'markFailed', at: new Date(t0), setorId: 's1', code: 'RECIP_BLOCKED', error: 'blocked' }).state;
          if (retries < MAX_MANUAL_RETRIES) {
            message = transition(campaignMessageDecider, message, { type: 'retry', at: new Date(t0) }).state;
            retries += 1;
            expect(message).toMatchObject({ status: 'pendente', error: null, errorCode: null, manualRetries: retries });
          } else {
            expect(() => transition(campaignMessageDecider, message, { type: 'retry', at: new Date(t0) }).state).toThrow(InvalidTransitionError);
            return;
          }
        }
      }),
    );
  });
});
