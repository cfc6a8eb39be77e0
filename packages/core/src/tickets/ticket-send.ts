import type { KeyMode } from '../api-keys/index.js';
import type { Decider } from '../shared/decider.js';
import { InvalidTransitionError } from '../shared/errors.js';
import type { JobScheduler, QueueDefinition } from '../shared/job-scheduler.js';

/** What an automatic ticket message is: the box's closing message, its rating request, or its thanks for a rating. */
export type TicketSendKind = 'closing_message' | 'rating_request' | 'csat_thanks';

/**
 * queued → sending (claimed: charged, attempt counted) → sent | failed; queued → skipped (nothing may
 * go: a closed official window, a disconnected box). A `sending` row found again by a retried job was
 * claimed by a run that died: it is sent again with the same client message id (the gateway answers the
 * earlier message instead of sending a copy) and never charged twice.
 */
export type TicketSendStatus = 'queued' | 'sending' | 'sent' | 'failed' | 'skipped';

/**
 * The record of one automatic ticket message, written in the transaction that queued it (closing the
 * ticket, or recording a rating reply) with its job. Its id is also the id of the message it sends
 * (the timeline row) and the client message id of its first channel message.
 */
export interface TicketSend {
  id: string;
  companyId: string;
  ticketId: string;
  setorId: string;
  kind: TicketSendKind;
  status: TicketSendStatus;
  /** The key mode of the request that queued it: test sends reach the simulator and are never charged. */
  keyMode: KeyMode;
  /** Claims started; above 1 the earlier run died between its claim and its record. */
  attempts: number;
  claimedAt: Date | null;
  /** What the claim charged (`chargeSend`), given back when the send fails. */
  charge: { debited: number; counted: number; day: string } | null;
  errorCode: string | null;
  error: string | null;
  sentAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type TicketSendCommand =
  | { type: 'claim'; at: Date; charge: { debited: number; counted: number; day: string } }
  | { type: 'retake'; at: Date }
  | { type: 'markSent'; at: Date; sentAt: Date }
  | { type: 'markFailed'; at: Date; code: string; error: string }
  | { type: 'skip'; at: Date; reason: string };

export type TicketSendEvent =
  | { type: 'claimed'; at: Date; charge: { debited: number; counted: number; day: string } }
  | { type: 'retaken'; at: Date }
  | { type: 'sent'; at: Date; sentAt: Date }
  | { type: 'failed'; at: Date; code: string; error: string }
  | { type: 'skipped'; at: Date; reason: string };

const refuse = (state: TicketSend, action: string, allowed: TicketSendStatus[]) => new InvalidTransitionError('ticket send', state.status, action, allowed);

/** The state machine of {@link TicketSend}. Settling a row that is already final changes nothing. */
export const ticketSendDecider: Decider<TicketSend, TicketSendCommand, TicketSendEvent> = {
  decide(command, state) {
    switch (command.type) {
      case 'claim':
        if (state.status !== 'queued') throw refuse(state, 'claim', ['queued']);
        return [{ type: 'claimed', at: command.at, charge: command.charge }];
      case 'retake':
        if (state.status !== 'sending') throw refuse(state, 'retake', ['sending']);
        return [{ type: 'retaken', at: command.at }];
      case 'markSent':
        if (state.status === 'sent') return [];
        if (state.status !== 'sending') throw refuse(state, 'settle', ['sending']);
        return [{ type: 'sent', at: command.at, sentAt: command.sentAt }];
      case 'markFailed':
        if (state.status === 'failed') return [];
        if (state.status !== 'sending') throw refuse(state, 'settle', ['sending']);
        return [{ type: 'failed', at: command.at, code: command.code, error: command.error }];
      case 'skip':
        if (state.status === 'skipped') return [];
        if (state.status !== 'queued') throw refuse(state, 'skip', ['queued']);
        return [{ type: 'skipped', at: command.at, reason: command.reason }];
    }
  },
  evolve(state, event) {
    const base = { ...state, updatedAt: event.at };
    switch (event.type) {
      case 'claimed':
        return { ...base, status: 'sending', attempts: state.attempts + 1, claimedAt: event.at, charge: event.charge };
      case 'retaken':
        // The earlier claim's time stays: the gateway looks for what the dead run sent since then.
        return { ...base, attempts: state.attempts + 1 };
      case 'sent':
        return { ...base, status: 'sent', sentAt: event.sentAt, errorCode: null, error: null };
      case 'failed':
        return { ...base, status: 'failed', errorCode: event.code, error: event.error };
      case 'skipped':
        return { ...base, status: 'skipped', errorCode: event.reason, error: null };
    }
  },
};

/** A new queued send. */
export function newTicketSend(input: Pick<TicketSend, 'id' | 'companyId' | 'ticketId' | 'setorId' | 'kind' | 'keyMode'>, at: Date): TicketSend {
  return { ...input, status: 'queued', attempts: 0, claimedAt: null, charge: null, errorCode: null, error: null, sentAt: null, createdAt: at, updatedAt: at };
}

/** Client message id of part `part` of a send: the send id, then `<id>.p<k>` (the same on every attempt: the gateway drops repeats). */
export function ticketSendClientMessageId(send: Pick<TicketSend, 'id'>, part: number): string {
  return part === 0 ? send.id : `${send.id}.p${part}`;
}

/** Stores {@link TicketSend} rows. */
export interface TicketSendRepository {
  insert(send: TicketSend): Promise<void>;
  /** The row, locked until the transaction ends (a retried job and a late first run serialise on it). */
  lockById(id: string): Promise<TicketSend | null>;
  /** Writes the row as it is now. */
  save(send: TicketSend): Promise<void>;
  /** The ticket's sends, oldest first. */
  listByTicket(companyId: string, ticketId: string): Promise<TicketSend[]>;
  /** Ids of sends still `queued` or `sending` whose row last changed before `before` (their worker may have died), oldest first. */
  listStale(before: Date, limit: number): Promise<string[]>;
}
export const TicketSendRepository = Symbol.for('carteiro.TicketSendRepository');

/** Queues of automatic ticket messages and rating expiry: the API enqueues (closing), the worker consumes. */
export const TicketSendQueues = {
  /** `{ sendId }`: sends one {@link TicketSend} (closing message, rating request, rating thanks). */
  send: 'ticket-send',
  /** `{ ticketId, companyId }` 24 h after a rating request: marks it `expired` when still unanswered. */
  ratingExpiry: 'ticket-rating-expiry',
} as const;

/**
 * A job whose worker died stays active until it expires (pg-boss then retries it): a short expiry
 * brings a lost closing message back within minutes. Infrastructure errors (the database away
 * after the send) are retried; the send row says what already happened.
 */
export const ticketSendQueueDefinitions: readonly QueueDefinition[] = [
  { name: TicketSendQueues.send, policy: 'standard', retryLimit: 20, retryDelay: 2, retryBackoff: true, expireInSeconds: 120 },
  { name: TicketSendQueues.ratingExpiry, policy: 'standard', retryLimit: 5, retryDelay: 30 },
];

/** How long a send may stay queued or claimed before the sweep enqueues it again (`TICKET_SEND_LEASE_MS`). */
export const DEFAULT_TICKET_SEND_LEASE_MS = 60_000;

/** Enqueues the job of a queued send (inside the transaction that wrote it). */
export async function enqueueTicketSend(jobs: JobScheduler, send: Pick<TicketSend, 'id'>): Promise<void> {
  await jobs.enqueue(TicketSendQueues.send, { sendId: send.id });
}

/** The automatic ticket messages' repositories (see `Repositories`). */
export interface TicketSendRepositories {
  ticketSends: TicketSendRepository;
}
