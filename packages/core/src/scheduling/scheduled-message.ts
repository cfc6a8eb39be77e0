import type { SendFailureCode } from '../channel/index.js';
import type { KeyMode } from '../api-keys/index.js';
import type { Decider } from '../shared/decider.js';
import { DomainError, InvalidTransitionError } from '../shared/errors.js';

/**
 * A timed send: a scheduled message (`kind: 'message'`, POST /v1/scheduled-messages), an
 * appointment reminder (`kind: 'reminder'`) or an appointment notice (`kind: 'notice'`: the
 * client told of a reschedule or cancellation). All are sent by their box's dispatch lane.
 * `sending` means claimed by a lane (the reads of a reminder show it as scheduled).
 */
export type TimedSendStatus = 'scheduled' | 'sending' | 'sent' | 'failed' | 'cancelled' | 'skipped';
export type TimedSendKind = 'message' | 'reminder' | 'notice';

export interface TimedSendContent {
  text: string | null;
  mediaUrl: string | null;
  mediaType: string | null;
  mediaFilename: string | null;
}

export interface ScheduledMessage {
  id: string;
  companyId: string;
  kind: TimedSendKind;
  /** Reminders and notices. */
  appointmentId: string | null;
  offsetMinutes: number | null;
  clientId: string;
  clientName: string | null;
  /** E.164. */
  phone: string;
  /** The box whose lane sends it (chosen at creation). */
  setorId: string;
  /** The mode of the key that created it: test sends go to the simulator and are never charged. */
  keyMode: KeyMode;
  content: TimedSendContent;
  sendAt: Date;
  /** When the lane may send it: `sendAt`, moved by safe hours or a retry. */
  effectiveSendAt: Date;
  respectSafeHours: boolean;
  /** Why `effectiveSendAt` is later than `sendAt`: `outside_safe_hours`, `retry`. */
  waitingReason: string | null;
  status: TimedSendStatus;
  /** Send attempts started (a claim starts one). */
  attempts: number;
  claimedBy: string | null;
  claimedAt: Date | null;
  sentAt: Date | null;
  messageId: string | null;
  errorCode: string | null;
  error: string | null;
  skipReason: string | null;
  cancelledAt: Date | null;
  /** What the claim of the current attempt charged (given back when it fails or is retried). */
  charge: { debited: number; counted: number; day: string } | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What a new timed send is made of; its lifecycle fields start empty. */
export type NewTimedSend = Pick<
  ScheduledMessage,
  'id' | 'companyId' | 'kind' | 'clientId' | 'clientName' | 'phone' | 'setorId' | 'keyMode' | 'content' | 'sendAt' | 'effectiveSendAt' | 'respectSafeHours' | 'createdAt'
> &
  Partial<Pick<ScheduledMessage, 'appointmentId' | 'offsetMinutes' | 'waitingReason' | 'status' | 'skipReason'>>;

/** A timed send as it is created: scheduled (unless told otherwise), never attempted, claimed, sent or charged. */
export function newTimedSend(fields: NewTimedSend): ScheduledMessage {
  return {
    appointmentId: null,
    offsetMinutes: null,
    waitingReason: null,
    status: 'scheduled',
    skipReason: null,
    ...fields,
    attempts: 0,
    claimedBy: null,
    claimedAt: null,
    sentAt: null,
    messageId: null,
    errorCode: null,
    error: null,
    cancelledAt: null,
    charge: null,
    updatedAt: fields.createdAt,
  };
}

/** Delays of the automatic retries of a temporary failure (business.md §2: +1, +5, +15 min). */
export const TIMED_SEND_RETRY_DELAYS_MS = [60_000, 300_000, 900_000] as const;

/** Failures retried on the schedule above: TEMP_* and a disconnected sender. */
export function isRetriedFailure(code: SendFailureCode | string): boolean {
  return code.startsWith('TEMP_') || code === 'SENDER_DISCONNECTED';
}

/** The client message id of the current attempt: the row id, then `<id>.r<n>` for retry n; `.p<k>` for later parts. */
export function timedClientMessageId(row: Pick<ScheduledMessage, 'id' | 'attempts'>, part = 0): string {
  const attempt = row.attempts <= 1 ? row.id : `${row.id}.r${row.attempts - 1}`;
  return part === 0 ? attempt : `${attempt}.p${part}`;
}

export type ScheduledMessageCommand =
  | { type: 'claim'; at: Date; owner: string }
  | { type: 'takeOver'; at: Date; owner: string }
  | { type: 'markSent'; at: Date; messageId: string; sentAt: Date }
  | { type: 'markFailed'; at: Date; code: string; error: string; retryDelaysMs: readonly number[] }
  | { type: 'defer'; at: Date; until: Date; reason: string }
  | { type: 'skip'; at: Date; reason: string }
  | { type: 'cancel'; at: Date };

export type ScheduledMessageEvent =
  | { type: 'claimed'; at: Date; owner: string }
  | { type: 'takenOver'; at: Date; owner: string }
  | { type: 'sent'; at: Date; messageId: string; sentAt: Date }
  | { type: 'retryScheduled'; at: Date; until: Date; code: string; error: string }
  | { type: 'failed'; at: Date; code: string; error: string }
  | { type: 'deferred'; at: Date; until: Date; reason: string }
  | { type: 'skipped'; at: Date; reason: string }
  | { type: 'cancelled'; at: Date };

const unsentAttempts = (state: ScheduledMessage) => (state.status === 'sending' ? Math.max(0, state.attempts - 1) : state.attempts);

const refuse = (state: ScheduledMessage, action: string, allowed: string[]) => new InvalidTransitionError('scheduled message', state.status, action, allowed);

/**
 * scheduled → sending (claim by the box's lane) → sent | failed | scheduled again (a retry);
 * scheduled → cancelled | skipped; sending → sending (a new lane holder takes over a dead run's claim).
 * Cancelling anything but a scheduled row is 409 CONFLICT with `details.status` (a cancelled one: no change).
 */
export const scheduledMessageDecider: Decider<ScheduledMessage, ScheduledMessageCommand, ScheduledMessageEvent> = {
  decide(command, state) {
    switch (command.type) {
      case 'claim':
        if (state.status !== 'scheduled') throw refuse(state, 'claim', ['scheduled']);
        return [{ type: 'claimed', at: command.at, owner: command.owner }];
      case 'takeOver':
        if (state.status !== 'sending') throw refuse(state, 'take over', ['sending']);
        return state.claimedBy === command.owner ? [] : [{ type: 'takenOver', at: command.at, owner: command.owner }];
      case 'markSent':
        if (state.status !== 'sending') throw refuse(state, 'settle', ['sending']);
        return [{ type: 'sent', at: command.at, messageId: command.messageId, sentAt: command.sentAt }];
      case 'markFailed': {
        if (state.status !== 'sending') throw refuse(state, 'settle', ['sending']);
        const delay = command.retryDelaysMs[state.attempts - 1];
        if (isRetriedFailure(command.code) && delay !== undefined) {
          return [{ type: 'retryScheduled', at: command.at, until: new Date(command.at.getTime() + delay), code: command.code, error: command.error }];
        }
        return [{ type: 'failed', at: command.at, code: command.code, error: command.error }];
      }
      case 'defer':
        if (state.status !== 'sending' && state.status !== 'scheduled') throw refuse(state, 'defer', ['scheduled', 'sending']);
        return [{ type: 'deferred', at: command.at, until: command.until, reason: command.reason }];
      case 'skip':
        if (state.status !== 'sending' && state.status !== 'scheduled') throw refuse(state, 'skip', ['scheduled', 'sending']);
        return [{ type: 'skipped', at: command.at, reason: command.reason }];
      case 'cancel':
        if (state.status === 'cancelled') return [];
        if (state.status !== 'scheduled') {
          throw new DomainError('CONFLICT', `The scheduled message is ${state.status === 'sending' ? 'being sent' : state.status}: it can no longer be cancelled`, { status: state.status });
        }
        return [{ type: 'cancelled', at: command.at }];
    }
  },
  evolve(state, event) {
    const base = { ...state, updatedAt: event.at };
    switch (event.type) {
      case 'claimed':
        return { ...base, status: 'sending', attempts: state.attempts + 1, claimedBy: event.owner, claimedAt: event.at, charge: null };
      case 'takenOver':
        return { ...base, claimedBy: event.owner };
      case 'sent':
        return { ...base, status: 'sent', sentAt: event.sentAt, messageId: event.messageId, errorCode: null, error: null, waitingReason: null };
      case 'retryScheduled':
        return { ...base, status: 'scheduled', effectiveSendAt: event.until, waitingReason: 'retry', errorCode: event.code, error: event.error, claimedBy: null, claimedAt: null };
      case 'failed':
        return { ...base, status: 'failed', errorCode: event.code, error: event.error, waitingReason: null };
      case 'deferred':
        // A claim undone before any send gives its attempt back (the next claim reuses the client id).
        return { ...base, status: 'scheduled', effectiveSendAt: event.until, waitingReason: event.reason, claimedBy: null, claimedAt: null, attempts: unsentAttempts(state) };
      case 'skipped':
        return { ...base, status: 'skipped', skipReason: event.reason, waitingReason: null, attempts: unsentAttempts(state) };
      case 'cancelled':
        return { ...base, status: 'cancelled', cancelledAt: event.at, waitingReason: null };
    }
  },
};
