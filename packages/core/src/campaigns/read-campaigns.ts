import { readableFailure, type SendFailureCode } from '../channel/index.js';
import { NotFoundError } from '../shared/errors.js';
import type { Page, PageRequest } from '../shared/pagination.js';
import type { Repositories } from '../shared/unit-of-work.js';
import { progressOf, type Campaign, type CampaignStatus } from './campaign.js';
import { publicMessageStatus, type CampaignMessage, type PublicMessageStatus } from './campaign-message.js';
import type { CampaignRepositories } from './campaign-repositories.js';

/** A campaign with its progress: `(enviados + falhas + pulados) / total` as a whole percentage. */
export interface CampaignDetail extends Campaign {
  progress: number;
}

/** One recipient's message as the reads show it. */
export interface CampaignMessageDetail {
  id: string;
  status: PublicMessageStatus;
  /** Raw error text (or the skip reason). */
  error: string | null;
  errorCode: SendFailureCode | null;
  /** The failure or skip in words for people (pt-BR); null when none. */
  readableError: string | null;
  contactId: string | null;
  /** The recipient's name, or the phone when it has none. */
  name: string;
  /** E.164. */
  phone: string;
  assignedSetorId: string;
  /** The number that sent it; null when not sent (the setor a failed attempt used is in the message.failed event). */
  actualSetorId: string | null;
  wasReassigned: boolean;
  createdAt: Date;
  sentAt: Date | null;
}

const SKIP_TEXTS: Record<string, string> = {
  cancelled_by_user: 'Envio cancelado pelo usuário.',
  no_sender_available: 'Nenhum número do grupo pôde enviar.',
};

export function campaignDetail(campaign: Campaign): CampaignDetail {
  // The added field first: on Node 20, `{ ...campaign, progress }` makes a new hidden class for every object.
  return { progress: progressOf(campaign.totals), ...campaign };
}

export function messageDetail(m: CampaignMessage): CampaignMessageDetail {
  const readable = m.errorCode ? readableFailure[m.errorCode] : m.skipReason ? (SKIP_TEXTS[m.skipReason] ?? null) : null;
  return {
    id: m.id,
    status: publicMessageStatus(m.status),
    error: m.error,
    errorCode: m.errorCode,
    readableError: readable,
    contactId: m.contactId,
    name: m.name ?? m.phone,
    phone: m.phone,
    assignedSetorId: m.assignedSetorId,
    actualSetorId: m.status === 'enviado' ? m.actualSetorId : null,
    wasReassigned: m.wasReassigned,
    createdAt: m.createdAt,
    sentAt: m.sentAt,
  };
}

/** The campaign reads; every read is scoped by company (another company's campaign is 404). */
export class ReadCampaigns {
  constructor(private readonly repos: Repositories<CampaignRepositories>) {}

  async list(companyId: string, status: CampaignStatus | undefined, page: PageRequest): Promise<Page<Campaign>> {
    return this.repos.campaigns.listByCompany(companyId, status ? { status } : {}, page);
  }

  async detail(companyId: string, id: string): Promise<CampaignDetail> {
    return campaignDetail(await this.campaign(companyId, id));
  }

  async messages(companyId: string, id: string, status: PublicMessageStatus | undefined, page: PageRequest): Promise<Page<CampaignMessageDetail>> {
    return this.recipients(companyId, id, status ? { status } : {}, page);
  }

  /** The messages of a campaign, by status and/or a search of name and phone (`q`). */
  async recipients(companyId: string, id: string, filter: { status?: PublicMessageStatus; q?: string }, page: PageRequest): Promise<Page<CampaignMessageDetail>> {
    const campaign = await this.campaign(companyId, id);
    const found = await this.repos.campaigns.listMessages(campaign.id, filter, page);
    return { ...found, items: found.items.map(messageDetail) };
  }

  private async campaign(companyId: string, id: string): Promise<Campaign> {
    const campaign = await this.repos.campaigns.findByIdInCompany(companyId, id);
    if (!campaign) throw new NotFoundError('Campaign', { id });
    return campaign;
  }
}
