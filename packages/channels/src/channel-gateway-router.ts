import type { NumberCheck, ChannelCapabilities, ChannelGateway, HealthProbe, KeyMode, MessageOperationResult, Profile, ProfileUpdate, QrCode, SendRequest, SendResult, SentMessageRef, SessionState, SessionTarget, Setor } from '@carteiro/core';
import { SIMULATOR_REF_PREFIX } from './simulator/channel-simulator.js';

/** The adapters a router chooses among; a missing provider means its setores use the simulator. */
export interface ChannelGatewayAdapters {
  simulator: ChannelGateway;
  /** The Evolution-compatible QR provider (`QR_PROVIDER_URL` set). */
  qrProvider?: ChannelGateway | null;
  /** The Cloud API (`OFFICIAL_API_URL` set). */
  official?: ChannelGateway | null;
}

/** Which adapter serves a call. */
export type ChannelAdapterName = 'simulator' | 'qr-provider' | 'official';

/**
 * The `ChannelGateway` the use cases get: picks an adapter per call.
 * 1. `test` keys always reach the simulator.
 * 2. A session the simulator holds (its `providerRef` starts with `sim:`) stays with the simulator for
 *    every call except a new `connect` with a live key, which starts a session at the setor's provider.
 * 3. Otherwise by setor type: `official` setores → the Cloud API, `qr` setores → the QR provider, each when
 *    configured, else the simulator (the embedded default).
 */
export class ChannelGatewayRouter implements ChannelGateway {
  constructor(private readonly adapters: ChannelGatewayAdapters) {}

  /** The adapter name a call on `target` goes to (for logs and tests). */
  route(target: { setor: Setor; mode: KeyMode; instance?: SessionTarget['instance'] }, connecting = false): ChannelAdapterName {
    if (target.mode === 'test') return 'simulator';
    if (!connecting && target.instance?.providerRef?.startsWith(SIMULATOR_REF_PREFIX)) return 'simulator';
    if (target.setor.channelType === 'official') return this.adapters.official ? 'official' : 'simulator';
    return this.adapters.qrProvider ? 'qr-provider' : 'simulator';
  }

  private pick(target: { setor: Setor; mode: KeyMode; instance?: SessionTarget['instance'] }, connecting = false): ChannelGateway {
    switch (this.route(target, connecting)) {
      case 'official':
        return this.adapters.official ?? this.adapters.simulator;
      case 'qr-provider':
        return this.adapters.qrProvider ?? this.adapters.simulator;
      default:
        return this.adapters.simulator;
    }
  }

  capabilities(setor: Setor, mode: KeyMode): ChannelCapabilities {
    return this.pick({ setor, mode }).capabilities(setor, mode);
  }
  connect(target: SessionTarget): Promise<QrCode> {
    return this.pick(target, true).connect(target);
  }
  sessionState(target: SessionTarget): Promise<SessionState> {
    return this.pick(target).sessionState(target);
  }
  disconnect(target: SessionTarget): Promise<void> {
    return this.pick(target).disconnect(target);
  }
  probe(target: SessionTarget): Promise<HealthProbe> {
    return this.pick(target).probe(target);
  }
  fetchProfile(target: SessionTarget): Promise<Profile> {
    return this.pick(target).fetchProfile(target);
  }
  updateProfile(target: SessionTarget, update: ProfileUpdate): Promise<Profile> {
    return this.pick(target).updateProfile(target, update);
  }
  send(request: SendRequest): Promise<SendResult> {
    return this.pick(request).send(request);
  }
  // Operations on a sent message follow the send's route: the use case passes the send's key mode and the
  // session that sent it, so a message sent through the simulator is edited there too.
  editMessage(target: SessionTarget, message: SentMessageRef & { text: string }): Promise<MessageOperationResult> {
    return this.pick(target).editMessage(target, message);
  }
  deleteMessage(target: SessionTarget, message: SentMessageRef): Promise<MessageOperationResult> {
    return this.pick(target).deleteMessage(target, message);
  }
  react(target: SessionTarget, message: SentMessageRef & { emoji: string }): Promise<MessageOperationResult> {
    return this.pick(target).react(target, message);
  }
  checkNumbers(target: SessionTarget, phones: readonly string[]): Promise<NumberCheck[]> {
    return this.pick(target).checkNumbers(target, phones);
  }
}
