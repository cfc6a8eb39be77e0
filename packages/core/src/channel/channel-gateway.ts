import type { KeyMode } from '../api-keys/index.js';
import type { Setor } from '../setores/index.js';
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
  /**
   * Set when an earlier attempt with this `clientMessageId` may have reached the provider (its worker died
   * between the send and its record): the earliest instant that attempt can have started. A gateway that can
   * look up what it sent answers the earlier message instead of sending it again (docs/channel.md).
   */
  earlierAttemptSince?: Date;
}

/** The outcome of one send; failures carry the specification's classified code. */
export type SendResult =
  | {
      ok: true;
      providerMessageId: string;
      sentAt: Date;
      /**
       * The provider's address of the chat the message went to, when it is not simply the number (the QR
       * provider's `key.remoteJid`, which may drop a Brazilian ninth digit). Handed back to operations on the message.
       */
      providerChatId?: string;
    }
  | SendFailure;

/** A classified failure of a send or of an operation on a sent message. */
export interface SendFailure {
  ok: false;
  code: SendFailureCode;
  error: string;
  /** The provider itself failed (5xx, network): a single send answers 502 and refunds. */
  providerFailure: boolean;
}

/** A channel message the gateway sent earlier, that an edit, delete or reaction acts on. */
export interface SentMessageRef {
  /** Recipient of that message, E.164. */
  to: string;
  /** `SendResult.providerMessageId` of that message. */
  providerMessageId: string;
  /** `SendResult.providerChatId` of that message, when the gateway gave one. */
  providerChatId?: string | null;
}

/** The outcome of an edit, delete or reaction: done at `at`, or a classified failure as for sends. */
export type MessageOperationResult = { ok: true; at: Date } | SendFailure;

/** A QR code to scan, as an image data URL. */
export interface QrCode {
  /**
   * `data:image/png;base64,…`; null when no code is needed: the provider reports the session already
   * connected, or the setor connects without one (official setores, with their Cloud API credentials).
   */
  qrCode: string | null;
  expiresInSeconds: number;
  /** The session state the provider reported with the code, when it did (always set when `qrCode` is null). */
  state?: SessionState;
  /** The provider's name for the session, to store on the instance (`providerRef`). */
  providerRef?: string;
  /** The session goes through one of the configured proxies (to store as `proxyConfigured`); absent: unchanged. */
  proxyConfigured?: boolean;
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

/** Whether a number has an account on the setor's channel; null when the provider cannot tell. */
export interface NumberCheck {
  /** E.164, as asked. */
  phone: string;
  hasChannel: boolean | null;
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
 * `editMessage`, `deleteMessage` and `react` act on a message the same gateway sent from the same
 * session; like `send` they return a classified result, and they throw `DomainError('UNPROCESSABLE')`
 * when the setor's channel cannot do the operation at all (see `ChannelCapabilities`).
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
  /** Replaces the text (or caption) of a sent message (`capabilities().editMessages`). */
  editMessage(target: SessionTarget, message: SentMessageRef & { text: string }): Promise<MessageOperationResult>;
  /** Deletes a sent message for everyone (`capabilities().deleteMessages`). */
  deleteMessage(target: SessionTarget, message: SentMessageRef): Promise<MessageOperationResult>;
  /** Sets the number's reaction to a sent message; an empty emoji removes it (`capabilities().reactions`). */
  react(target: SessionTarget, message: SentMessageRef & { emoji: string }): Promise<MessageOperationResult>;
  /**
   * Whether each number (E.164) has an account on the channel, in the order asked, through the setor's
   * connected session: the QR provider asks its server in paced batches, the official Cloud API cannot
   * tell (null), the simulator answers by its magic numbers (…0001: none). Throws `PROVIDER_ERROR`
   * when the provider fails.
   */
  checkNumbers(target: SessionTarget, phones: readonly string[]): Promise<NumberCheck[]>;
}
export const ChannelGateway = Symbol.for('carteiro.ChannelGateway');
