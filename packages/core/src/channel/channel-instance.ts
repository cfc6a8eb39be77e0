import type { Decider } from '../shared/decider.js';
import type { DomainEvent, EventActor } from '../shared/domain-event.js';
import { InvalidTransitionError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Setor } from '../setores/index.js';
import type { SendFailureCode } from './send-failure.js';

/** Connection state of a setor's channel session. */
export type InstanceStatus = 'disconnected' | 'connecting' | 'connected';
export const InstanceStatuses: readonly InstanceStatus[] = ['disconnected', 'connecting', 'connected'];

/** The channel session of one setor (one per setor; created again it is reused). */
export interface ChannelInstance {
  id: string;
  companyId: string;
  setorId: string;
  status: InstanceStatus;
  /** E.164 number of the connected phone; null until connected. */
  phoneNumber: string | null;
  /** The provider's name for the session, when the provider has one. */
  providerRef: string | null;
  proxyConfigured: boolean;
  /** When the current QR code was first requested (the simulator scans a delay after it). */
  qrRequestedAt: Date | null;
  connectedAt: Date | null;
  disconnectedAt: Date | null;
  profileName: string | null;
  profilePictureUrl: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** How long one QR code stays valid; a request after that gets a new code. */
export const QR_LIFETIME_SECONDS = 60;

/** Why a session ended. */
export type DisconnectReason =
  /** The company asked for it (POST …/disconnect). */
  | 'user'
  /** A send reported a sender failure (ban, lost session, …). */
  | 'sender_failure'
  /** The provider reports the session closed (status poll or health check). */
  | 'session_lost';

/** What may happen to an instance. */
export type InstanceCommand =
  | { type: 'request-qr'; at: Date }
  | { type: 'observe-session'; at: Date; status: InstanceStatus; phoneNumber: string | null }
  | { type: 'disconnect'; at: Date; reason: DisconnectReason; code?: SendFailureCode | null; error?: string | null };

/** What did happen; `evolveInstance` applies it. */
export type InstanceEvent =
  /** A new QR window opened (the first request, or one after the previous code expired). */
  | { type: 'qr-requested'; at: Date }
  /** The phone scanned the code; the session is pairing. */
  | { type: 'pairing-started'; at: Date }
  | { type: 'connected'; at: Date; phoneNumber: string }
  | {
      type: 'disconnected';
      at: Date;
      reason: DisconnectReason;
      previousStatus: InstanceStatus;
      phoneNumber: string | null;
      code: SendFailureCode | null;
      error: string | null;
    };

export function createChannelInstance(id: string, setor: Setor, now: Date): ChannelInstance {
  return {
    id,
    companyId: setor.companyId,
    setorId: setor.id,
    status: 'disconnected',
    phoneNumber: null,
    providerRef: null,
    proxyConfigured: false,
    qrRequestedAt: null,
    connectedAt: null,
    disconnectedAt: null,
    profileName: null,
    profilePictureUrl: null,
    createdAt: now,
    updatedAt: now,
  };
}

/** Whether the QR window that opened at `qrRequestedAt` is still open at `now`. */
export function qrWindowOpen(instance: Pick<ChannelInstance, 'qrRequestedAt'>, now: Date): boolean {
  return instance.qrRequestedAt !== null && now.getTime() - instance.qrRequestedAt.getTime() < QR_LIFETIME_SECONDS * 1000;
}

/** Seconds left of the current QR code (at least 1 while the window is open, else 0). */
export function qrSecondsLeft(instance: Pick<ChannelInstance, 'qrRequestedAt'>, now: Date): number {
  if (!qrWindowOpen(instance, now) || instance.qrRequestedAt === null) return 0;
  const left = QR_LIFETIME_SECONDS - (now.getTime() - instance.qrRequestedAt.getTime()) / 1000;
  return Math.max(1, Math.ceil(left));
}

/**
 * The instance state machine: disconnected → connecting → connected, and back to disconnected
 * on a user disconnect, a sender failure or a lost session. Pure: returns the events a command
 * causes (none when it changes nothing), throws `InvalidTransitionError` when it is refused.
 */
export function decideInstance(command: InstanceCommand, instance: ChannelInstance): InstanceEvent[] {
  switch (command.type) {
    case 'request-qr': {
      if (instance.status === 'connected') {
        throw new InvalidTransitionError('channel instance', instance.status, 'request a QR code for', ['disconnected', 'connecting']);
      }
      // Within the window the same code is shown again; after it a new one.
      return qrWindowOpen(instance, command.at) ? [] : [{ type: 'qr-requested', at: command.at }];
    }
    case 'observe-session': {
      // A session nobody asked for (no pending QR or pairing) is not adopted: after a disconnect the
      // setor stays disconnected even if the provider still holds a session (official credentials stay valid).
      const asked = instance.status !== 'disconnected' || instance.qrRequestedAt !== null;
      if (command.status === 'connected') {
        if (instance.status === 'connected' || !asked) return [];
        const phoneNumber = command.phoneNumber ?? instance.phoneNumber;
        // A session whose number the provider has not named yet is still pairing: connected always
        // has a phone_number (null only until connected), and the next report will name it.
        if (!phoneNumber) return instance.status === 'disconnected' ? [{ type: 'pairing-started', at: command.at }] : [];
        return [{ type: 'connected', at: command.at, phoneNumber }];
      }
      if (command.status === 'connecting') {
        // A connected session the provider reports as reconnecting stays connected; health reports it.
        return instance.status === 'disconnected' && asked ? [{ type: 'pairing-started', at: command.at }] : [];
      }
      if (instance.status === 'disconnected') return [];
      return [disconnected(instance, command.at, 'session_lost', null, null)];
    }
    case 'disconnect': {
      if (instance.status === 'disconnected' && instance.qrRequestedAt === null) return [];
      return [disconnected(instance, command.at, command.reason, command.code ?? null, command.error ?? null)];
    }
  }
}

function disconnected(
  instance: ChannelInstance,
  at: Date,
  reason: DisconnectReason,
  code: SendFailureCode | null,
  error: string | null,
): InstanceEvent {
  return { type: 'disconnected', at, reason, previousStatus: instance.status, phoneNumber: instance.phoneNumber, code, error };
}

/** Applies one event. */
export function evolveInstance(instance: ChannelInstance, event: InstanceEvent): ChannelInstance {
  switch (event.type) {
    case 'qr-requested':
      return { ...instance, qrRequestedAt: event.at, updatedAt: event.at };
    case 'pairing-started':
      return { ...instance, status: 'connecting', updatedAt: event.at };
    case 'connected':
      return {
        ...instance,
        status: 'connected',
        phoneNumber: event.phoneNumber || null,
        qrRequestedAt: null,
        connectedAt: event.at,
        updatedAt: event.at,
      };
    case 'disconnected':
      return { ...instance, status: 'disconnected', phoneNumber: null, qrRequestedAt: null, disconnectedAt: event.at, updatedAt: event.at };
  }
}

/**
 * The instance state machine (see {@link decideInstance}). Instances are built by
 * `createChannelInstance`, so there is no initial state; `instanceOfSetor` stores it.
 */
export const channelInstanceDecider: Decider<ChannelInstance, InstanceCommand, InstanceEvent> = {
  decide: decideInstance,
  evolve: evolveInstance,
};

/**
 * The webhook-facing facts of instance events: `channel.session_connected` when a session
 * connects, `channel.session_disconnected` when a connected session ends (a pairing that never
 * connected ends silently).
 */
export function instanceDomainEvents(
  instance: ChannelInstance,
  events: readonly InstanceEvent[],
  ids: IdGenerator,
  actor: EventActor,
): DomainEvent[] {
  const out: DomainEvent[] = [];
  for (const event of events) {
    if (event.type === 'connected') {
      out.push({
        id: ids.newId(),
        event: 'channel.session_connected',
        companyId: instance.companyId,
        setorId: instance.setorId,
        occurredAt: event.at,
        data: { instanceId: instance.id, setorId: instance.setorId, phoneNumber: event.phoneNumber || null },
        actor,
      });
    } else if (event.type === 'disconnected' && event.previousStatus === 'connected') {
      out.push({
        id: ids.newId(),
        event: 'channel.session_disconnected',
        companyId: instance.companyId,
        setorId: instance.setorId,
        occurredAt: event.at,
        data: {
          instanceId: instance.id,
          setorId: instance.setorId,
          phoneNumber: event.phoneNumber,
          reason: event.reason,
          error_code: event.code,
          error: event.error,
        },
        actor,
      });
    }
  }
  return out;
}
