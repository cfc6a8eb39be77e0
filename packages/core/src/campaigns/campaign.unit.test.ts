import { describe, expect, it } from '@jest/globals';
import { InvalidTransitionError } from '../shared/errors.js';
import { ManualClock } from '../shared/testing/manual-clock.js';
import { campaignDecider, CampaignStatusEnglish, progressOf, type Campaign, type CampaignCommand, type CampaignStatus } from './campaign.js';
import { transition } from '../shared/decider.js';
import type { Untimed } from '../shared/testing/decider-spec.js';
import { campaignFixture } from './testing/campaign-fixtures.js';

/** The command without its time (the tests give it apart). */
type Move = Untimed<CampaignCommand>;

/** Runs a command through the campaign decider at `at`: the campaign after it and its one event. */
function move(campaign: Campaign, command: Move, at: Date) {
  const { state, events } = transition(campaignDecider, campaign, { ...command, at } as CampaignCommand);
  return { campaign: state, event: events[0]! };
}

const clock = new ManualClock('2026-01-15T15:00:00.000Z');

describe('campaign state machine', () => {
  const moves: [CampaignStatus, Move, CampaignStatus][] = [
    ['pendente', { type: 'start' }, 'processando'],
    ['processando', { type: 'pause' }, 'pausado'],
    ['pausado', { type: 'resume' }, 'processando'],
    ['processando', { type: 'cancel' }, 'concluido'],
    ['pausado', { type: 'cancel' }, 'concluido'],
    ['pendente', { type: 'cancel' }, 'concluido'],
    ['processando', { type: 'fail', error: 'no sender' }, 'falha'],
  ];
  it.each(moves)('given a campaign %s, when %o, then it is %s', (from, command, to) => {
    const { campaign } = move(campaignFixture({ status: from }), command, clock.now());
    expect(campaign.status).toBe(to);
    expect(campaign.updatedAt).toEqual(clock.now());
  });

  const refused: [CampaignStatus, CampaignCommand['type'], string[]][] = [
    ['pendente', 'pause', ['processando']],
    ['pausado', 'pause', ['processando']],
    ['processando', 'resume', ['pausado']],
    ['concluido', 'resume', ['pausado']],
    ['concluido', 'cancel', ['pendente', 'processando', 'pausado']],
    ['falha', 'cancel', ['pendente', 'processando', 'pausado']],
    ['processando', 'start', ['pendente']],
  ];
  it.each(refused)('given a campaign %s, when %s, then 409 INVALID_TRANSITION with status and allowed', (from, type, allowed) => {
    const act = () => move(campaignFixture({ status: from }), { type } as Move, clock.now());
    expect(act).toThrow(InvalidTransitionError);
    try {
      act();
    } catch (error) {
      expect((error as InvalidTransitionError).code).toBe('INVALID_TRANSITION');
      expect((error as InvalidTransitionError).details).toEqual({ status: from, allowed });
    }
  });

  it('given a cancel, then the campaign records it was cancelled by the user and when it finished', () => {
    const { campaign } = move(campaignFixture({ status: 'processando' }), { type: 'cancel' }, clock.now());
    expect(campaign.cancelledByUser).toBe(true);
    expect(campaign.finishedAt).toEqual(clock.now());
  });

  it('given unsettled messages, when completing, then it refuses; once settled it completes', () => {
    const running = campaignFixture({ status: 'processando', totals: { total: 3, enviados: 1, falhas: 1, pulados: 0 } });
    expect(() => move(running, { type: 'complete' }, clock.now())).toThrow('still has messages');
    const settled = { ...running, totals: { total: 3, enviados: 1, falhas: 1, pulados: 1 } };
    expect(move(settled, { type: 'complete' }, clock.now()).campaign.status).toBe('concluido');
  });

  it('given a failure, then the error text is kept', () => {
    const { campaign } = move(campaignFixture({ status: 'processando' }), { type: 'fail', error: 'all banned' }, clock.now());
    expect(campaign.error).toBe('all banned');
  });

  it('speaks English in action responses and computes progress as an integer percent', () => {
    expect(CampaignStatusEnglish).toEqual({ pendente: 'queued', processando: 'processing', pausado: 'paused', concluido: 'completed', falha: 'failed' });
    expect(progressOf({ total: 3, enviados: 1, falhas: 0, pulados: 0 })).toBe(33);
    expect(progressOf({ total: 4, enviados: 2, falhas: 1, pulados: 1 })).toBe(100);
  });
});
