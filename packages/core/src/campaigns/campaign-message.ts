import type { MediaType } from '../channel/index.js';
import type { SendFailureCode } from '../channel/index.js';
import type { Decider } from '../shared/decider.js';
import { InvalidTransitionError } from '../shared/errors.js';

/**
 * Status of one recipient's message. `enviando` is internal: the message is claimed by the lane
 * of its number and may be on its way to the channel; reads show it as `pendente`.
 */
export const CampaignMessageStatuses = ['pendente', 'enviando', 'enviado', 'falha', 'pulado'] as const;
export type CampaignMessageStatus = (typeof CampaignMessageStatuses)[number];
export type PublicMessageStatus = Exclude<CampaignMessageStatus, 'enviando'>;
export const PublicMessageStatuses: readonly PublicMessageStatus[] = ['pendente', 'enviado', 'falha', 'pulado'];

export function publicMessageStatus(status: CampaignMessageStatus): PublicMessageStatus {
  return status === 'enviando' ? 'pendente' : status;
}

/** Why a message was skipped. */
export type SkipReason = 'warming_daily_limit' | 'cancelled_by_user' | 'no_sender_available';

/** The most manual retries of one message, and the most automatic ones (temporary failures). */
export const MAX_MANUAL_RETRIES = 2;
export const MAX_AUTO_RETRIES = 5;

/** One recipient of a campaign. */
export interface CampaignMessage {
  id: string;
  campaignId: string;
  companyId: string;
  /** Position in the request: orders sending and rotates variants. */
  seq: number;
  contactId: string | null;
  /** E.164. */
  phone: string;
  name: string | null;
  /** Per-recipient overrides of the request. */
  text: string | null;
  mediaUrl: string | null;
  mediaType: MediaType | null;
  variables: Record<string, string> | null;
  status: CampaignMessageStatus;
  /** The number distribution chose at creation. */
  assignedSetorId: string;
  /** The number whose lane sends it now (differs after redistribution). */
  setorId: string;
  /** The number that sent it; null until sent. */
  actualSetorId: string | null;
  wasReassigned: boolean;
  /** Raw error text, classified code, and why it was skipped. */
  error: string | null;
  errorCode: SendFailureCode | null;
  skipReason: SkipReason | null;
  /** Send attempts so far (each attempt uses its own client message id). */
  attempts: number;
  manualRetries: number;
  autoRetries: number;
  /** Not claimed before this instant (backoff of automatic retries). */
  notBefore: Date | null;
  /** The lane that claimed it (fencing token). */
  claimedBy: string | null;
  claimedAt: Date | null;
  providerMessageId: string | null;
  sentAt: Date | null;
  /** Receipts of the channel (only forward; see the receipts area); absent on records read before they existed. */
  deliveredAt?: Date | null;
  readAt?: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The fields of a new campaign message that its sends fill in later: not sent, not tried, not claimed, on its first box. */
export const FRESH_CAMPAIGN_MESSAGE_FIELDS = {
  actualSetorId: null,
  wasReassigned: false,
  error: null,
  errorCode: null,
  skipReason: null,
  attempts: 0,
  manualRetries: 0,
  autoRetries: 0,
  notBefore: null,
  claimedBy: null,
  claimedAt: null,
  providerMessageId: null,
  sentAt: null,
} as const satisfies Partial<CampaignMessage>;

/** What may be asked of a campaign message; `at` is when (the caller's clock). */
export type CampaignMessageCommand =
  | { type: 'claim'; at: Date; by: string }
  | { type: 'markSent'; at: Date; setorId: string; providerMessageId: string; sentAt: Date }
  | { type: 'markFailed'; at: Date; setorId: string | null; code: SendFailureCode; error: string }
  | { type: 'requeue'; at: Date; notBefore: Date | null; auto: boolean }
  | { type: 'skip'; at: Date; reason: SkipReason; code: SendFailureCode | null; error: string | null }
  | { type: 'retry'; at: Date }
  | { type: 'reassign'; at: Date; setorId: string };

/** What happened to a campaign message (one event per accepted command); `evolveMessage` applies it. */
export type CampaignMessageEvent =
  | { type: 'claimed'; at: Date; by: string }
  | { type: 'sent'; at: Date; setorId: string; providerMessageId: string; sentAt: Date }
  | { type: 'failed'; at: Date; setorId: string | null; code: SendFailureCode; error: string }
  | { type: 'requeued'; at: Date; notBefore: Date | null; auto: boolean }
  | { type: 'skipped'; at: Date; reason: SkipReason; code: SendFailureCode | null; error: string | null }
  | { type: 'retried'; at: Date }
  | { type: 'reassigned'; at: Date; setorId: string };

export const CampaignMessageTransitions: Record<CampaignMessageCommand['type'], readonly CampaignMessageStatus[]> = {
  claim: ['pendente'],
  markSent: ['enviando'],
  markFailed: ['enviando'],
  requeue: ['enviando'],
  skip: ['pendente', 'enviando'],
  retry: ['falha'],
  reassign: ['pendente'],
};

/** Decides what a command does to a message, or refuses it with 409 INVALID_TRANSITION. */
export function decideMessage(command: CampaignMessageCommand, message: CampaignMessage): CampaignMessageEvent[] {
  const allowed = CampaignMessageTransitions[command.type];
  if (!allowed.includes(message.status)) {
    throw new InvalidTransitionError('campaign message', message.status, command.type, allowed);
  }
  switch (command.type) {
    case 'claim':
      return [{ type: 'claimed', at: command.at, by: command.by }];
    case 'markSent':
      return [{ type: 'sent', at: command.at, setorId: command.setorId, providerMessageId: command.providerMessageId, sentAt: command.sentAt }];
    case 'markFailed':
      return [{ type: 'failed', at: command.at, setorId: command.setorId, code: command.code, error: command.error }];
    case 'requeue':
      return [{ type: 'requeued', at: command.at, notBefore: command.notBefore, auto: command.auto }];
    case 'skip':
      return [{ type: 'skipped', at: command.at, reason: command.reason, code: command.code, error: command.error }];
    case 'retry':
      if (message.manualRetries >= MAX_MANUAL_RETRIES) {
        throw new InvalidTransitionError('campaign message', 'falha (manual retries exhausted)', 'retry', []);
      }
      return [{ type: 'retried', at: command.at }];
    case 'reassign':
      return [{ type: 'reassigned', at: command.at, setorId: command.setorId }];
  }
}

/** Applies an event to a message. */
export function evolveMessage(message: CampaignMessage, event: CampaignMessageEvent): CampaignMessage {
  const base = { ...message, updatedAt: event.at };
  switch (event.type) {
    case 'claimed':
      return { ...base, status: 'enviando', claimedBy: event.by, claimedAt: event.at };
    case 'sent':
      return {
        ...base,
        status: 'enviado',
        actualSetorId: event.setorId,
        providerMessageId: event.providerMessageId,
        sentAt: event.sentAt,
        error: null,
        errorCode: null,
        claimedBy: null,
      };
    case 'failed':
      return { ...base, status: 'falha', actualSetorId: event.setorId, error: event.error, errorCode: event.code, claimedBy: null };
    case 'requeued':
      return {
        ...base,
        status: 'pendente',
        notBefore: event.notBefore,
        autoRetries: message.autoRetries + (event.auto ? 1 : 0),
        claimedBy: null,
        claimedAt: null,
      };
    case 'skipped':
      return { ...base, status: 'pulado', skipReason: event.reason, errorCode: event.code, error: event.error, claimedBy: null };
    case 'retried':
      return {
        ...base,
        status: 'pendente',
        manualRetries: message.manualRetries + 1,
        error: null,
        errorCode: null,
        actualSetorId: null,
        notBefore: null,
      };
    case 'reassigned':
      return { ...base, setorId: event.setorId, wasReassigned: event.setorId !== message.assignedSetorId || message.wasReassigned };
  }
}

/**
 * The state machine of one recipient's message: pendente → enviando → enviado | falha | pulado,
 * back to pendente for automatic (requeue) and manual (retry) retries. Messages are built when
 * their campaign is created, so there is no initial state.
 */
export const campaignMessageDecider: Decider<CampaignMessage, CampaignMessageCommand, CampaignMessageEvent> = {
  decide: decideMessage,
  evolve: evolveMessage,
};

/** The client message id of an attempt: the message id itself first, a suffixed one for retries. */
export function clientMessageIdOf(message: Pick<CampaignMessage, 'id' | 'attempts'>, part = 0): string {
  const attempt = message.attempts === 0 ? message.id : `${message.id}.r${message.attempts}`;
  return part === 0 ? attempt : `${attempt}.p${part}`;
}

/** Counter and credit effects of a status change. */
export interface SettlementDelta {
  enviados: number;
  falhas: number;
  pulados: number;
  /** Units to give back to the company (negative: to take again). */
  refund: number;
}

/**
 * Credit settlement (operations.md section 4): a failed, skipped or cancelled message gives its
 * unit back; a sent message keeps it; a manual retry takes the unit again.
 */
export function settlementDelta(from: CampaignMessageStatus, to: CampaignMessageStatus, chargesCredits: boolean): SettlementDelta {
  const delta: SettlementDelta = { enviados: 0, falhas: 0, pulados: 0, refund: 0 };
  const count = (status: CampaignMessageStatus, sign: number) => {
    if (status === 'enviado') delta.enviados += sign;
    if (status === 'falha') delta.falhas += sign;
    if (status === 'pulado') delta.pulados += sign;
  };
  count(from, -1);
  count(to, 1);
  if (chargesCredits) {
    const refunded = (s: CampaignMessageStatus) => s === 'falha' || s === 'pulado';
    if (!refunded(from) && refunded(to)) delta.refund += 1;
    if (refunded(from) && !refunded(to)) delta.refund -= 1;
  }
  return delta;
}
