import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { DomainError, InvalidTransitionError } from '../shared/errors.js';
import { campaignFixture } from './testing/campaign-fixtures.js';
import {
  CampaignStatuses,
  CampaignTransitions,
  isActive,
  isTerminal,
  progressOf,
  campaignDecider,
  unsettledCount,
  type Campaign,
  type CampaignCommand,
  type CampaignStatus,
} from './campaign.js';
import { transition } from '../shared/decider.js';
import type { Untimed } from '../shared/testing/decider-spec.js';

/** The command without its time (the tests give it apart). */
type Move = Untimed<CampaignCommand>;

/** Runs a command through the campaign decider at `at`: the campaign after it and its one event. */
function move(campaign: Campaign, command: Move, at: Date) {
  const { state, events } = transition(campaignDecider, campaign, { ...command, at } as CampaignCommand);
  return { campaign: state, event: events[0]! };
}

const t0 = Date.parse('2026-01-15T12:00:00.000Z');

/**
 * The oracle, written from docs/campaigns.md rather than from the code: where each command may
 * leave from and where it goes.
 */
const documented: Record<CampaignCommand['type'], { from: CampaignStatus[]; to: CampaignStatus }> = {
  start: { from: ['pendente'], to: 'processando' },
  pause: { from: ['processando'], to: 'pausado' },
  resume: { from: ['pausado'], to: 'processando' },
  cancel: { from: ['pendente', 'processando', 'pausado'], to: 'concluido' },
  complete: { from: ['processando'], to: 'concluido' },
  fail: { from: ['pendente', 'processando', 'pausado'], to: 'falha' },
  reopen: { from: ['concluido', 'falha'], to: 'processando' },
};

/** A command, or messages settling (the lanes recording outcomes between commands). */
type Step = { kind: 'command'; command: Move } | { kind: 'settle'; enviados: number; falhas: number; pulados: number };

const commandArb: fc.Arbitrary<Move> = fc.oneof(
  fc.constantFrom<Move>({ type: 'start' }, { type: 'pause' }, { type: 'resume' }, { type: 'cancel' }, { type: 'complete' }, { type: 'reopen' }),
  fc.string({ maxLength: 20 }).map((error): Move => ({ type: 'fail', error })),
);
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: commandArb.map((command): Step => ({ kind: 'command', command })) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.nat({ max: 40 }), fc.nat({ max: 5 }), fc.nat({ max: 5 }))
      .map(([enviados, falhas, pulados]): Step => ({ kind: 'settle', enviados, falhas, pulados })),
  },
);
const totalArb = fc.oneof(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: 10_000 }));

/** Settles up to the requested counts, never more than remain (as the settle transaction does). */
function settle(campaign: Campaign, step: Extract<Step, { kind: 'settle' }>): Campaign {
  const totals = { ...campaign.totals };
  for (const key of ['enviados', 'falhas', 'pulados'] as const) {
    const take = Math.min(step[key], unsettledCount(totals));
    totals[key] += take;
  }
  return { ...campaign, totals };
}

function expectRefusal(error: unknown, campaign: Campaign, command: Move): void {
  expect(error).toBeInstanceOf(DomainError);
  const refusal = error as DomainError;
  if (command.type === 'complete' && campaign.status === 'processando') {
    // Allowed from here, but not while messages remain.
    expect(refusal.code).toBe('CONFLICT');
    expect(unsettledCount(campaign.totals)).toBeGreaterThan(0);
    expect(refusal.details).toEqual({ pending: unsettledCount(campaign.totals) });
    return;
  }
  expect(refusal).toBeInstanceOf(InvalidTransitionError);
  expect(refusal.code).toBe('INVALID_TRANSITION');
  if (command.type === 'reopen' && documented.reopen.from.includes(campaign.status)) {
    // A campaign the user cancelled is never reopened.
    expect(campaign.cancelledByUser).toBe(true);
    expect(refusal.details).toEqual({ status: campaign.status, allowed: [] });
    return;
  }
  // 409 names the status and every status the command is allowed from.
  expect(documented[command.type].from).not.toContain(campaign.status);
  expect(refusal.details).toEqual({ status: campaign.status, allowed: documented[command.type].from });
}

describe('campaign state machine (properties)', () => {
  it('the allowed moves are the documented ones', () => {
    for (const [type, { from }] of Object.entries(documented)) expect(CampaignTransitions[type as CampaignCommand['type']]).toEqual(from);
  });

  it('random command sequences: documented moves only, refusals change nothing, terminal stays terminal, counters add up, progress only grows and is 100 only when all settle', () => {
    fc.assert(
      fc.property(totalArb, fc.array(stepArb, { maxLength: 80 }), (total, steps) => {
        let campaign = campaignFixture({ status: 'pendente', totals: { total, enviados: 0, falhas: 0, pulados: 0 } });
        let now = t0;
        let progress = progressOf(campaign.totals);
        let startedAt: Date | null = null;
        for (const step of steps) {
          now += 1_000;
          if (step.kind === 'settle') {
            campaign = settle(campaign, step);
          } else {
            const before = structuredClone(campaign);
            try {
              const { campaign: next, event } = move(campaign, step.command, new Date(now));
              expect(documented[step.command.type].from).toContain(campaign.status);
              expect(next.status).toBe(documented[step.command.type].to);
              expect(event.at.getTime()).toBe(now);
              expect(next.updatedAt.getTime()).toBe(now);
              expect(next.totals).toEqual(campaign.totals); // status moves never touch the counts
              if (step.command.type === 'complete') expect(unsettledCount(campaign.totals)).toBe(0);
              if (step.command.type === 'reopen') expect(campaign.cancelledByUser).toBe(false);
              if (step.command.type === 'cancel') expect(next.cancelledByUser).toBe(true);
              if (step.command.type === 'fail') expect(next.error).toBe(step.command.error);
              campaign = next;
            } catch (error) {
              expectRefusal(error, campaign, step.command);
            }
            expect(before.totals).toEqual(campaign.totals);
            if (campaign.updatedAt.getTime() !== now) expect(campaign).toEqual(before); // refused: unchanged
          }

          // Counters add up and never exceed the total.
          const { enviados, falhas, pulados } = campaign.totals;
          expect(enviados + falhas + pulados + unsettledCount(campaign.totals)).toBe(total);
          expect(unsettledCount(campaign.totals)).toBeGreaterThanOrEqual(0);
          // Progress never decreases (no retry in this model) and is 100 exactly when every message is settled.
          const p = progressOf(campaign.totals);
          expect(p).toBeGreaterThanOrEqual(progress);
          expect(p === 100).toBe(unsettledCount(campaign.totals) === 0);
          progress = p;
          // Finished iff terminal; started once and never again.
          expect(campaign.finishedAt !== null).toBe(isTerminal(campaign.status));
          expect(isActive(campaign.status) && isTerminal(campaign.status)).toBe(false);
          if (startedAt) expect(campaign.startedAt).toEqual(startedAt);
          startedAt = campaign.startedAt;
          if (campaign.status === 'processando' || campaign.status === 'pausado') expect(campaign.startedAt).not.toBeNull();
          // A cancelled campaign is concluido for good.
          if (campaign.cancelledByUser) expect(campaign.status).toBe('concluido');
          if (campaign.status === 'falha') expect(campaign.error).not.toBeNull();
        }
      }),
      { numRuns: 400 },
    );
  });

  it('terminal states stay terminal: from concluido or falha only a retry (reopen) of a campaign not cancelled moves', () => {
    fc.assert(
      fc.property(fc.constantFrom<CampaignStatus>('concluido', 'falha'), fc.boolean(), commandArb, (status, cancelledByUser, command) => {
        const campaign = campaignFixture({ status, cancelledByUser: status === 'concluido' && cancelledByUser, finishedAt: new Date(t0) });
        const moves = () => move(campaign, command, new Date(t0 + 1));
        if (command.type === 'reopen' && !campaign.cancelledByUser) expect(moves().campaign.status).toBe('processando');
        else expect(moves).toThrow(InvalidTransitionError);
      }),
    );
  });

  it('pause / resume / cancel combinations: pause and resume alternate, cancel ends it from any of them, then nothing moves it', () => {
    const actionArb = fc.constantFrom<Move>({ type: 'pause' }, { type: 'resume' }, { type: 'cancel' });
    fc.assert(
      fc.property(fc.array(actionArb, { maxLength: 30 }), fc.constantFrom<CampaignStatus>('pendente', 'processando'), (actions, start) => {
        let campaign = campaignFixture({ status: start, startedAt: start === 'processando' ? new Date(t0) : null });
        let expected: CampaignStatus = start;
        let now = t0;
        for (const action of actions) {
          now += 1;
          const legal =
            (action.type === 'pause' && expected === 'processando') ||
            (action.type === 'resume' && expected === 'pausado') ||
            (action.type === 'cancel' && expected !== 'concluido');
          if (legal) {
            campaign = move(campaign, action, new Date(now)).campaign;
            expected = action.type === 'pause' ? 'pausado' : action.type === 'resume' ? 'processando' : 'concluido';
          } else {
            expect(() => move(campaign, action, new Date(now))).toThrow(InvalidTransitionError);
          }
          expect(campaign.status).toBe(expected);
        }
        if (expected === 'concluido') {
          expect(campaign.cancelledByUser).toBe(true);
          for (const type of ['start', 'pause', 'resume', 'cancel', 'complete', 'reopen'] as const) {
            expect(() => move(campaign, { type }, new Date(now + 1))).toThrow(InvalidTransitionError);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('progress is an integer percent that reaches 100 only when every message is settled, for any total', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.nat(), fc.nat(), fc.nat(), (total, a, b, c) => {
        const enviados = a % (total + 1);
        const falhas = b % (total - enviados + 1);
        const pulados = c % (total - enviados - falhas + 1);
        const p = progressOf({ total, enviados, falhas, pulados });
        expect(Number.isInteger(p) && p >= 0 && p <= 100).toBe(true);
        expect(p === 100).toBe(enviados + falhas + pulados === total);
      }),
    );
    expect(CampaignStatuses).toHaveLength(5);
  });
});
