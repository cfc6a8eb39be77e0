import type { KeyMode } from '../api-keys/index.js';
import type { MediaDelivery, MediaType } from '../channel/index.js';
import type { Decider } from '../shared/decider.js';
import { DomainError, InvalidTransitionError } from '../shared/errors.js';
import type { AntiBanLevel } from './anti-ban.js';
import type { Distribution, DistributionMode } from './distribution.js';

/** Status values of the specification's reads. */
export const CampaignStatuses = ['pendente', 'processando', 'pausado', 'concluido', 'falha'] as const;
export type CampaignStatus = (typeof CampaignStatuses)[number];

/** English spellings used in the responses of creation and the actions ('queued' equals pendente). */
export const CampaignStatusEnglish: Record<CampaignStatus, string> = {
  pendente: 'queued',
  processando: 'processing',
  pausado: 'paused',
  concluido: 'completed',
  falha: 'failed',
};

export type ExecutionMode = 'immediate' | 'scheduled' | 'deferred_to_safe_window';

/** The message of a campaign as requested, personalised per recipient when it is sent. */
export interface CampaignContent {
  text: string | null;
  variants: string[];
  mediaUrl: string | null;
  mediaType: MediaType | null;
  mediaDelivery: MediaDelivery | null;
  mediaFilename: string | null;
  templateName: string | null;
  templateLanguage: string | null;
  templateComponents: unknown[] | null;
  templateRaw: unknown[] | null;
  templateVars: string[] | null;
}

/** Settled counts; `total - enviados - falhas - pulados` messages are still to send. */
export interface CampaignTotals {
  total: number;
  enviados: number;
  falhas: number;
  pulados: number;
}

/** A bulk campaign of a company. */
export interface Campaign {
  id: string;
  companyId: string;
  /** The key that created it (null when created by the system). */
  apiKeyId: string | null;
  /** `test` campaigns go to the simulator and touch no credit or counter. */
  mode: KeyMode;
  name: string;
  title: string | null;
  description: string | null;
  status: CampaignStatus;
  content: CampaignContent;
  antiBanLevel: AntiBanLevel;
  distribution: Distribution;
  distributionMode: DistributionMode;
  /** The pool of setores, in the order distribution uses them. */
  setorIds: string[];
  executionMode: ExecutionMode;
  /** When a scheduled or deferred campaign starts; null for immediate ones. */
  scheduledFor: Date | null;
  waitingReason: string | null;
  callbackUrl: string | null;
  /** Units reserved at creation (one per recipient for `avulso` live campaigns, else 0). */
  creditsReserved: number;
  totals: CampaignTotals;
  error: string | null;
  cancelledByUser: boolean;
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

/** Whether settled messages give their reserved unit back (operations.md section 4). */
export function chargesCredits(campaign: Pick<Campaign, 'creditsReserved'>): boolean {
  return campaign.creditsReserved > 0;
}

export function unsettledCount(totals: CampaignTotals): number {
  return totals.total - totals.enviados - totals.falhas - totals.pulados;
}

/** progress = (enviados + falhas + pulados) / total * 100, as an integer percent. */
export function progressOf(totals: CampaignTotals): number {
  if (totals.total === 0) return 100;
  return Math.floor(((totals.enviados + totals.falhas + totals.pulados) / totals.total) * 100);
}

/** Active campaigns count against the concurrency cap (scheduled ones included). */
export function isActive(status: CampaignStatus): boolean {
  return status === 'pendente' || status === 'processando';
}

export function isTerminal(status: CampaignStatus): boolean {
  return status === 'concluido' || status === 'falha';
}

/** What may be asked of a campaign; `at` is when (the caller's clock). */
export type CampaignCommand =
  | { type: 'start'; at: Date }
  | { type: 'pause'; at: Date }
  | { type: 'resume'; at: Date }
  | { type: 'cancel'; at: Date }
  | { type: 'complete'; at: Date }
  | { type: 'fail'; at: Date; error: string }
  | { type: 'reopen'; at: Date };

/** What happened to a campaign; `evolveCampaign` applies it. */
export type CampaignEvent =
  | { type: 'started'; at: Date }
  | { type: 'paused'; at: Date }
  | { type: 'resumed'; at: Date }
  | { type: 'cancelled'; at: Date }
  | { type: 'completed'; at: Date }
  | { type: 'failed'; at: Date; error: string }
  | { type: 'reopened'; at: Date };

/**
 * Which statuses each command may leave from. Cancel is also allowed from pendente, so that a
 * scheduled campaign (which holds a concurrency slot) can be called off before it starts.
 */
export const CampaignTransitions: Record<CampaignCommand['type'], readonly CampaignStatus[]> = {
  start: ['pendente'],
  pause: ['processando'],
  resume: ['pausado'],
  cancel: ['pendente', 'processando', 'pausado'],
  complete: ['processando'],
  fail: ['pendente', 'processando', 'pausado'],
  // A retry of failed messages reopens a finished campaign (not one the user cancelled).
  reopen: ['concluido', 'falha'],
};

const verbs: Record<CampaignCommand['type'], string> = {
  start: 'start',
  pause: 'pause',
  resume: 'resume',
  cancel: 'cancel',
  complete: 'complete',
  fail: 'fail',
  reopen: 'retry',
};

/** Decides what a command does to a campaign (one event), or refuses it with 409 INVALID_TRANSITION. */
export function decideCampaign(command: CampaignCommand, campaign: Campaign): CampaignEvent[] {
  const allowed = CampaignTransitions[command.type];
  if (!allowed.includes(campaign.status)) {
    throw new InvalidTransitionError('campaign', campaign.status, verbs[command.type], allowed);
  }
  const at = command.at;
  switch (command.type) {
    case 'start':
      return [{ type: 'started', at }];
    case 'pause':
      return [{ type: 'paused', at }];
    case 'resume':
      return [{ type: 'resumed', at }];
    case 'cancel':
      return [{ type: 'cancelled', at }];
    case 'complete':
      if (unsettledCount(campaign.totals) > 0) {
        throw new DomainError('CONFLICT', 'The campaign still has messages to send', { pending: unsettledCount(campaign.totals) });
      }
      return [{ type: 'completed', at }];
    case 'fail':
      return [{ type: 'failed', at, error: command.error }];
    case 'reopen':
      if (campaign.cancelledByUser) throw new InvalidTransitionError('cancelled campaign', campaign.status, 'retry', []);
      return [{ type: 'reopened', at }];
  }
}

/** Applies an event to a campaign. */
export function evolveCampaign(campaign: Campaign, event: CampaignEvent): Campaign {
  switch (event.type) {
    case 'started':
      return { ...campaign, status: 'processando', startedAt: campaign.startedAt ?? event.at, waitingReason: null, updatedAt: event.at };
    case 'paused':
      return { ...campaign, status: 'pausado', updatedAt: event.at };
    case 'resumed':
      return { ...campaign, status: 'processando', updatedAt: event.at };
    case 'cancelled':
      return { ...campaign, status: 'concluido', cancelledByUser: true, finishedAt: event.at, updatedAt: event.at };
    case 'completed':
      return { ...campaign, status: 'concluido', finishedAt: event.at, updatedAt: event.at };
    case 'failed':
      return { ...campaign, status: 'falha', error: event.error, finishedAt: event.at, updatedAt: event.at };
    case 'reopened':
      // A campaign that failed before it ever started (fail from pendente) starts now.
      return { ...campaign, status: 'processando', startedAt: campaign.startedAt ?? event.at, error: null, finishedAt: null, updatedAt: event.at };
  }
}

/**
 * The campaign state machine: pendente → processando ⇄ pausado → concluido | falha, with cancel
 * and a reopen of finished campaigns for manual retries. Campaigns are built by `CreateCampaign`,
 * so there is no initial state.
 */
export const campaignDecider: Decider<Campaign, CampaignCommand, CampaignEvent> = {
  decide: decideCampaign,
  evolve: evolveCampaign,
};
