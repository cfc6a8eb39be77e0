import type { KeyMode } from '../api-keys/api-key.js';
import type { Setor } from '../setores/setor.js';
import type { ChannelInstance, InstanceStatus } from './channel-instance.js';
import type { ChannelCapabilities, OutboundContent } from './outbound-content.js';
import type { SendFailureCode } from './send-failure.js';

/** Which session a gateway call is about. */
export interface SessionTarget {
  setor: Setor;
  instance: ChannelInstance;
  /** `test` keys always reach the simulator. */
  mode: KeyMode;
}

/** One channel message to send. */
export interface SendRequest extends SessionTarget {
  /** Recipient in E.164. */
  to: string;
  content: OutboundContent;
  /**
   * Our id for this channel message. Gateways that can, pass it to the provider so that a
   * retried send after a crash is not delivered twice.
   */
  clientMessageId: string;
}

export type SendResult =
  | { ok: true; providerMessageId: string; sentAt: Date }
  | {
      ok: false;
      code: SendFailureCode;
      error: string;
      /** The provider itself failed (5xx, network): a single send answers 502 and refunds. */
      providerFailure: boolean;
    };

/** A QR code to scan, as an image data URL. */
export interface QrCode {
  qrCode: string;
  expiresInSeconds: number;
}

export interface SessionState {
  status: InstanceStatus;
  phoneNumber: string | null;
}

export interface HealthProbe {
  /** The provider answered the probe. */
  responding: boolean;
  connected: boolean;
  error: string | null;
}

export interface ProfileUpdate {
  name?: string;
  pictureUrl?: string;
}

export interface Profile {
  name: string | null;
  pictureUrl: string | null;
}

/**
 * The port through which the core reaches a messaging channel. Adapters: the simulator,
 * the QR provider (Evolution-API-compatible) and the official Cloud API.
 */
export interface ChannelGateway {
  capabilities(setor: Setor, mode: KeyMode): ChannelCapabilities;
  /** Starts (or continues) a session and returns a QR code to scan. */
  connect(target: SessionTarget): Promise<QrCode>;
  sessionState(target: SessionTarget): Promise<SessionState>;
  disconnect(target: SessionTarget): Promise<void>;
  probe(target: SessionTarget): Promise<HealthProbe>;
  fetchProfile(target: SessionTarget): Promise<Profile>;
  updateProfile(target: SessionTarget, update: ProfileUpdate): Promise<Profile>;
  send(request: SendRequest): Promise<SendResult>;
}
export const ChannelGateway = Symbol.for('carteiro.ChannelGateway');
