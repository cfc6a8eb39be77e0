import { describe, it } from '@jest/globals';
import { DomainError, InvalidTransitionError } from '../shared/errors.js';
import { campaignFixture } from './testing/campaign-fixtures.js';
import { given } from '../shared/testing/decider-spec.js';
import { campaignDecider } from './campaign.js';

const at = new Date('2026-01-15T15:00:00.000Z');
const startedAt = new Date('2026-01-15T12:30:00.000Z');

describe('campaignDecider', () => {
  it('given a pendente campaign, when started, then started and processando with its start time', () => {
    given(campaignDecider, campaignFixture({ status: 'pendente', waitingReason: 'outside_safe_hours' }))
      .when({ type: 'start', at })
      .then([{ type: 'started', at }]);
    given(campaignDecider, campaignFixture({ status: 'pendente', waitingReason: 'outside_safe_hours' }))
      .when({ type: 'start', at })
      .thenState({ status: 'processando', startedAt: at, waitingReason: null, updatedAt: at });
  });

  it('given a processando campaign, when paused then resumed, then pausado then processando again', () => {
    const paused = given(campaignDecider, campaignFixture({ status: 'processando', startedAt })).when({ type: 'pause', at }).then([{ type: 'paused', at }]);
    given(campaignDecider, paused).when({ type: 'resume', at }).thenState({ status: 'processando', startedAt, updatedAt: at });
  });

  it('given a pausado campaign, when paused again, then 409 INVALID_TRANSITION', () => {
    given(campaignDecider, campaignFixture({ status: 'pausado' })).when({ type: 'pause', at }).thenThrows(InvalidTransitionError);
  });

  it('given a scheduled campaign, when cancelled, then concluido, cancelled by the user, finished now', () => {
    given(campaignDecider, campaignFixture({ status: 'pendente' }))
      .when({ type: 'cancel', at })
      .thenState({ status: 'concluido', cancelledByUser: true, finishedAt: at });
  });

  it('given messages still to send, when completing, then refused; once settled, completed', () => {
    const running = campaignFixture({ status: 'processando', totals: { total: 2, enviados: 1, falhas: 0, pulados: 0 } });
    given(campaignDecider, running)
      .when({ type: 'complete', at })
      .thenThrows((error) => error instanceof DomainError && error.code === 'CONFLICT');
    given(campaignDecider, { ...running, totals: { total: 2, enviados: 1, falhas: 1, pulados: 0 } })
      .when({ type: 'complete', at })
      .then([{ type: 'completed', at }]);
  });

  it('given a running campaign, when failed, then falha with the error kept', () => {
    given(campaignDecider, campaignFixture({ status: 'processando' }))
      .when({ type: 'fail', at, error: 'no sender' })
      .thenState({ status: 'falha', error: 'no sender', finishedAt: at });
  });

  it('given a finished campaign, when reopened for a retry, then processando with the failure cleared; a cancelled one is refused', () => {
    given(campaignDecider, campaignFixture({ status: 'falha', error: 'no sender', finishedAt: startedAt }))
      .when({ type: 'reopen', at })
      .thenState({ status: 'processando', error: null, finishedAt: null, startedAt: at });
    given(campaignDecider, campaignFixture({ status: 'concluido', cancelledByUser: true }))
      .when({ type: 'reopen', at })
      .thenThrows('Cannot retry a cancelled campaign');
  });
});
