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

/** The outcome of one send; failures carry the specification's classified code. */
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
  /**
   * `data:image/png;base64,…`; null when no code is needed: the provider reports the session already
   * connected, or the box connects without one (official boxes, with their Cloud API credentials).
   */
  qrCode: string | null;
  expiresInSeconds: number;
  /** The session state the provider reported with the code, when it did (always set when `qrCode` is null). */
  state?: SessionState;
  /** The provider's name for the session, to store on the instance (`providerRef`). */
  providerRef?: string;
}

/** The provider's view of a session. */
export interface SessionState {
  status: InstanceStatus;
  phoneNumber: string | null;
}

/** The answer to one health probe; probes never throw: a failure is `responding: false`. */
export interface HealthProbe {
  /** The provider answered the probe. */
  responding: boolean;
  connected: boolean;
  error: string | null;
}

/** A change of the connected number's public profile; absent fields stay as they are. */
export interface ProfileUpdate {
  name?: string;
  pictureUrl?: string;
}

/** The connected number's public profile. */
export interface Profile {
  name: string | null;
  pictureUrl: string | null;
}

/**
 * The port through which the core reaches a messaging channel. Adapters: the simulator,
 * the QR provider (Evolution-API-compatible) and the official Cloud API, behind a router that picks
 * one per call (`@carteiro/channels`). Session and profile calls throw `DomainError('PROVIDER_ERROR')`
 * when the provider fails; `send` never throws for a provider failure, it returns a classified
 * `SendResult`; `probe` never throws. Unsupported content is sent as its `fallbackText`.
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
