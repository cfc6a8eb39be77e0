import type { SendFailureCode } from './send-failure.js';

/** `kind` of a simulated channel message, as GET /admin/v1/simulator/messages shows it. */
export type SimulatedMessageKind = 'text' | 'image' | 'video' | 'audio' | 'document' | 'template' | 'interactive' | 'poll' | 'event';

/** One channel message the simulator was asked to send (newest first in reads). */
export interface SimulatedMessage {
  id: string;
  /** The sender's id for the message: a retried send with the same id is the same message. */
  clientMessageId: string;
  companyId: string;
  setorId: string;
  instanceId: string;
  /** The simulated sending number (null when the session was not connected). */
  from: string | null;
  to: string;
  kind: SimulatedMessageKind;
  text: string | null;
  mediaUrl: string | null;
  mediaType: string | null;
  mediaFilename: string | null;
  templateName: string | null;
  /** The content as the simulator received it (and `fallbackOf` when sent as text instead). */
  payload: Record<string, unknown>;
  outcome: 'sent' | 'failed';
  errorCode: SendFailureCode | null;
  error: string | null;
  /** The simulated provider itself failed (a single send answers 502). */
  providerFailure: boolean;
  sentAt: Date;
}

export interface SimulatedMessageFilter {
  /** Recipient, any format: compared by digits. */
  to?: string;
  setorId?: string;
  companyId?: string;
  limit: number;
}

/** How a simulated session ended. */
export type SimulatedSessionEnd = { at: Date; reason: 'banned' | 'logged_out' };

/**
 * The simulator's state, shared by every process on one database: its outbox and the ends of
 * sessions (bans, logouts). Session starts are read from the instance (`qrRequestedAt`, `connectedAt`).
 */
export interface ChannelSimulatorStore {
  /**
   * Stores the message unless one with its `clientMessageId` exists; returns the stored one and
   * whether it was created now (a retried send gets the original back).
   */
  recordMessage(message: SimulatedMessage): Promise<{ message: SimulatedMessage; created: boolean }>;
  findByClientMessageId(clientMessageId: string): Promise<SimulatedMessage | null>;
  /** Newest first. */
  listMessages(filter: SimulatedMessageFilter): Promise<SimulatedMessage[]>;
  recordSessionEnd(instanceId: string, end: SimulatedSessionEnd): Promise<void>;
  /** The latest end of a session of the instance, or null. */
  lastSessionEnd(instanceId: string): Promise<SimulatedSessionEnd | null>;
  /** Deletes outbox messages sent before `before`; returns how many. */
  purgeMessagesBefore(before: Date): Promise<number>;
}
export const ChannelSimulatorStore = Symbol.for('carteiro.ChannelSimulatorStore');

/** Digits of a phone, for recipient filters that accept any format. */
export function phoneDigits(phone: string): string {
  return phone.replace(/\D/g, '');
}
