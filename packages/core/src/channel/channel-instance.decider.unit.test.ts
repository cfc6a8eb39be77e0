import { describe, it } from '@jest/globals';
import { createSetor } from '../setores/index.js';
import { InvalidTransitionError } from '../shared/errors.js';
import { given } from '../shared/testing/decider-spec.js';
import { channelInstanceDecider, createChannelInstance, type ChannelInstance } from './channel-instance.js';

const t0 = new Date('2026-01-15T12:00:00.000Z');
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
const setor = createSetor('setor-1', 'company-1', t0, { nome: 'Vendas' });
const instance = (overrides: Partial<ChannelInstance> = {}): ChannelInstance => ({ ...createChannelInstance('instance-1', setor, t0), ...overrides });
const phone = '+5511987654321';

describe('channelInstanceDecider', () => {
  it('given a disconnected instance, when a QR code is requested, then a QR window opens; within it nothing changes', () => {
    const asked = given(channelInstanceDecider, instance()).when({ type: 'request-qr', at: at(0) }).then([{ type: 'qr-requested', at: at(0) }]);
    given(channelInstanceDecider, asked).when({ type: 'request-qr', at: at(30) }).then([]);
    given(channelInstanceDecider, asked).when({ type: 'request-qr', at: at(60) }).thenState({ qrRequestedAt: at(60) });
  });

  it('given a connected instance, when a QR code is requested, then 409 INVALID_TRANSITION', () => {
    given(channelInstanceDecider, instance({ status: 'connected', phoneNumber: phone }))
      .when({ type: 'request-qr', at: at(0) })
      .thenThrows(InvalidTransitionError);
  });

  it('given a QR window, when the provider reports pairing then a connected number, then connecting then connected', () => {
    const asked = instance({ qrRequestedAt: at(0) });
    const pairing = given(channelInstanceDecider, asked)
      .when({ type: 'observe-session', at: at(5), status: 'connecting', phoneNumber: null })
      .then([{ type: 'pairing-started', at: at(5) }]);
    given(channelInstanceDecider, pairing)
      .when({ type: 'observe-session', at: at(9), status: 'connected', phoneNumber: phone })
      .thenState({ status: 'connected', phoneNumber: phone, connectedAt: at(9), qrRequestedAt: null });
  });

  it('given nobody asked for a session, when the provider reports one connected, then it is not adopted', () => {
    given(channelInstanceDecider, instance()).when({ type: 'observe-session', at: at(1), status: 'connected', phoneNumber: phone }).then([]);
  });

  it('given a connected instance, when the provider reports the session gone, then disconnected as session_lost', () => {
    given(channelInstanceDecider, instance({ status: 'connected', phoneNumber: phone }))
      .when({ type: 'observe-session', at: at(1), status: 'disconnected', phoneNumber: null })
      .then([{ type: 'disconnected', at: at(1), reason: 'session_lost', previousStatus: 'connected', phoneNumber: phone, code: null, error: null }]);
  });

  it('given a connected instance, when a sender failure disconnects it, then disconnected with the code; a second disconnect changes nothing', () => {
    const gone = given(channelInstanceDecider, instance({ status: 'connected', phoneNumber: phone }))
      .when({ type: 'disconnect', at: at(2), reason: 'sender_failure', code: 'SENDER_BANNED', error: 'banned' })
      .then([{ type: 'disconnected', at: at(2), reason: 'sender_failure', previousStatus: 'connected', phoneNumber: phone, code: 'SENDER_BANNED', error: 'banned' }]);
    given(channelInstanceDecider, gone).when({ type: 'disconnect', at: at(3), reason: 'user' }).then([]);
    given(channelInstanceDecider, instance({ status: 'connected', phoneNumber: phone }))
      .when({ type: 'disconnect', at: at(2), reason: 'user' })
      .thenState({ status: 'disconnected', phoneNumber: null, disconnectedAt: at(2) });
  });
});
