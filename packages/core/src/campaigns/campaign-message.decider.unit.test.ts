import { describe, it } from '@jest/globals';
import { InvalidTransitionError } from '../shared/errors.js';
import { messageFixture } from './testing/campaign-fixtures.js';
import { given } from '../shared/testing/decider-spec.js';
import { campaignMessageDecider, MAX_MANUAL_RETRIES } from './campaign-message.js';

const at = new Date('2026-01-15T15:00:00.000Z');
const later = new Date('2026-01-15T15:05:00.000Z');

describe('campaignMessageDecider', () => {
  it('given a pending message, when claimed, then enviando held by the lane', () => {
    given(campaignMessageDecider, messageFixture())
      .when({ type: 'claim', at, by: 'lane-1' })
      .then([{ type: 'claimed', at, by: 'lane-1' }]);
    given(campaignMessageDecider, messageFixture()).when({ type: 'claim', at, by: 'lane-1' }).thenState({ status: 'enviando', claimedBy: 'lane-1', claimedAt: at });
  });

  it('given a claimed message, when sent, then enviado with the sender, provider id and time, and released', () => {
    given(campaignMessageDecider, messageFixture({ status: 'enviando', claimedBy: 'lane-1', error: 'old', errorCode: 'TEMP_TIMEOUT' }))
      .when({ type: 'markSent', at, setorId: 's2', providerMessageId: 'p1', sentAt: at })
      .thenState({ status: 'enviado', actualSetorId: 's2', providerMessageId: 'p1', sentAt: at, claimedBy: null, error: null, errorCode: null });
  });

  it('given a claimed message, when it fails, then falha with the classified code', () => {
    given(campaignMessageDecider, messageFixture({ status: 'enviando', claimedBy: 'lane-1' }))
      .when({ type: 'markFailed', at, setorId: 's1', code: 'RECIP_BLOCKED', error: 'blocked' })
      .thenState({ status: 'falha', actualSetorId: 's1', errorCode: 'RECIP_BLOCKED', error: 'blocked', claimedBy: null });
  });

  it('given a claimed message, when requeued automatically, then pendente until later with one more automatic retry', () => {
    given(campaignMessageDecider, messageFixture({ status: 'enviando', claimedBy: 'lane-1', autoRetries: 2 }))
      .when({ type: 'requeue', at, notBefore: later, auto: true })
      .thenState({ status: 'pendente', notBefore: later, autoRetries: 3, claimedBy: null, claimedAt: null });
  });

  it('given a pending message, when skipped, then pulado with the reason', () => {
    given(campaignMessageDecider, messageFixture())
      .when({ type: 'skip', at, reason: 'cancelled_by_user', code: null, error: 'cancelled_by_user' })
      .thenState({ status: 'pulado', skipReason: 'cancelled_by_user', error: 'cancelled_by_user' });
  });

  it('given a failed message, when retried, then pendente with the failure cleared; past the manual limit it is refused', () => {
    given(campaignMessageDecider, messageFixture({ status: 'falha', errorCode: 'TEMP_TIMEOUT', error: 'x', actualSetorId: 's1' }))
      .when({ type: 'retry', at })
      .thenState({ status: 'pendente', manualRetries: 1, error: null, errorCode: null, actualSetorId: null });
    given(campaignMessageDecider, messageFixture({ status: 'falha', manualRetries: MAX_MANUAL_RETRIES }))
      .when({ type: 'retry', at })
      .thenThrows(InvalidTransitionError);
  });

  it('given a pending message, when reassigned, then it moves and says so; a sent one is refused', () => {
    given(campaignMessageDecider, messageFixture()).when({ type: 'reassign', at, setorId: 's2' }).thenState({ setorId: 's2', assignedSetorId: 's1', wasReassigned: true });
    given(campaignMessageDecider, messageFixture({ status: 'enviado' })).when({ type: 'reassign', at, setorId: 's2' }).thenThrows(InvalidTransitionError);
  });
});
