import type { MediaType } from '../channel/outbound-content.js';
import type { SendFailureCode } from '../channel/send-failure.js';
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
  createdAt: Date;
  updatedAt: Date;
}

export type CampaignMessageCommand =
  | { type: 'claim'; by: string }
  | { type: 'markSent'; setorId: string; providerMessageId: string; sentAt: Date }
  | { type: 'markFailed'; setorId: string | null; code: SendFailureCode; error: string }
  | { type: 'requeue'; notBefore: Date | null; auto: boolean }
  | { type: 'skip'; reason: SkipReason; code: SendFailureCode | null; error: string | null }
  | { type: 'retry' }
  | { type: 'reassign'; setorId: string };

export const CampaignMessageTransitions: Record<CampaignMessageCommand['type'], readonly CampaignMessageStatus[]> = {
  claim: ['pendente'],
  markSent: ['enviando'],
  markFailed: ['enviando'],
  requeue: ['enviando'],
  skip: ['pendente', 'enviando'],
  retry: ['falha'],
  reassign: ['pendente'],
};

/** Applies a command to a message (decide and evolve in one: each command has one outcome). */
export function transitionMessage(message: CampaignMessage, command: CampaignMessageCommand, now: Date): CampaignMessage {
  const allowed = CampaignMessageTransitions[command.type];
  if (!allowed.includes(message.status)) {
    throw new InvalidTransitionError('campaign message', message.status, command.type, allowed);
  }
  const base = { ...message, updatedAt: now };
  switch (command.type) {
    case 'claim':
      return { ...base, status: 'enviando', claimedBy: command.by, claimedAt: now };
    case 'markSent':
      return {
        ...base,
        status: 'enviado',
        actualSetorId: command.setorId,
        providerMessageId: command.providerMessageId,
        sentAt: command.sentAt,
        error: null,
        errorCode: null,
        claimedBy: null,
      };
    case 'markFailed':
      return { ...base, status: 'falha', actualSetorId: command.setorId, error: command.error, errorCode: command.code, claimedBy: null };
    case 'requeue':
      return {
        ...base,
        status: 'pendente',
        notBefore: command.notBefore,
        autoRetries: message.autoRetries + (command.auto ? 1 : 0),
        claimedBy: null,
        claimedAt: null,
      };
    case 'skip':
      return { ...base, status: 'pulado', skipReason: command.reason, errorCode: command.code, error: command.error, claimedBy: null };
    case 'retry':
      if (message.manualRetries >= MAX_MANUAL_RETRIES) {
        throw new InvalidTransitionError('campaign message', 'falha (manual retries exhausted)', 'retry', []);
      }
      return {
        ...base,
        status: 'pendente',
        manualRetries: message.manualRetries + 1,
        error: null,
        errorCode: null,
        actualSetorId: null,
        notBefore: null,
      };
    case 'reassign':
      return { ...base, setorId: command.setorId, wasReassigned: command.setorId !== message.assignedSetorId || message.wasReassigned };
  }
}

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
