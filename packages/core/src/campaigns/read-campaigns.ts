import { readableFailure } from '../channel/send-failure.js';
import { NotFoundError } from '../shared/errors.js';
import type { Page, PageRequest } from '../shared/pagination.js';
import type { Repositories } from '../shared/unit-of-work.js';
import { CampaignStatusEnglish, progressOf, type Campaign, type CampaignStatus } from './campaign.js';
import { publicMessageStatus, type CampaignMessage, type PublicMessageStatus } from './campaign-message.js';

/** Item of GET /v1/campaigns. */
export interface CampaignListItem {
  id: string;
  name: string;
  mensagem: string | null;
  total_destinatarios: number;
  total_enviados: number;
  total_falhas: number;
  total_pulados: number;
  status: CampaignStatus;
  created_at: string;
}

/** GET /v1/campaigns/:id: the list item plus the specification's detail fields and the engine's own. */
export interface CampaignDetail extends CampaignListItem {
  imagem_url: string | null;
  progress: number;
  updated_at: string;
  title: string | null;
  description: string | null;
  status_en: string;
  execution_mode: string;
  scheduled_for: string | null;
  waiting_reason: string | null;
  distribution_mode: string;
  distribution: string;
  number_pool_size: number;
  setor_ids: string[];
  anti_ban_level: string;
  credits_reserved: number;
  cancelled_by_user: boolean;
  error: string | null;
  started_at: string | null;
  finished_at: string | null;
}

/** Item of GET /v1/campaigns/:id/messages. */
export interface CampaignMessageDetail {
  id: string;
  status: PublicMessageStatus;
  erro: string | null;
  erro_codigo: string | null;
  erro_legivel: string | null;
  created_at: string;
  sent_at: string | null;
  assigned_setor_id: string;
  actual_setor_id: string | null;
  was_reassigned: boolean;
  clientes: { nome: string; telefone: string };
}

/** Item of GET /v1/campaigns/:id/recipients. */
export interface CampaignRecipientItem {
  id: string;
  client_id: string | null;
  nome: string;
  telefone: string;
  status: PublicMessageStatus;
  erro_codigo: string | null;
  sent_at: string | null;
}

const SKIP_TEXTS: Record<string, string> = {
  cancelled_by_user: 'Envio cancelado pelo usuário.',
  no_sender_available: 'Nenhum número do grupo pôde enviar.',
};

function listItem(c: Campaign): CampaignListItem {
  return {
    id: c.id,
    name: c.name,
    mensagem: c.content.text ?? c.content.templateName,
    total_destinatarios: c.totals.total,
    total_enviados: c.totals.enviados,
    total_falhas: c.totals.falhas,
    total_pulados: c.totals.pulados,
    status: c.status,
    created_at: c.createdAt.toISOString(),
  };
}

export function campaignDetail(c: Campaign): CampaignDetail {
  return {
    ...listItem(c),
    imagem_url: c.content.mediaUrl,
    progress: progressOf(c.totals),
    updated_at: c.updatedAt.toISOString(),
    title: c.title,
    description: c.description,
    status_en: CampaignStatusEnglish[c.status],
    execution_mode: c.executionMode,
    scheduled_for: c.scheduledFor?.toISOString() ?? null,
    waiting_reason: c.waitingReason,
    distribution_mode: c.distributionMode,
    distribution: c.distribution,
    number_pool_size: c.setorIds.length,
    setor_ids: c.setorIds,
    anti_ban_level: c.antiBanLevel,
    credits_reserved: c.creditsReserved,
    cancelled_by_user: c.cancelledByUser,
    error: c.error,
    started_at: c.startedAt?.toISOString() ?? null,
    finished_at: c.finishedAt?.toISOString() ?? null,
  };
}

export function messageDetail(m: CampaignMessage): CampaignMessageDetail {
  const readable = m.errorCode ? readableFailure[m.errorCode] : m.skipReason ? (SKIP_TEXTS[m.skipReason] ?? null) : null;
  return {
    id: m.id,
    status: publicMessageStatus(m.status),
    erro: m.error,
    erro_codigo: m.errorCode,
    erro_legivel: readable,
    created_at: m.createdAt.toISOString(),
    sent_at: m.sentAt?.toISOString() ?? null,
    assigned_setor_id: m.assignedSetorId,
    // The specification: null when not sent (the box a failed attempt used is in the message.failed event).
    actual_setor_id: m.status === 'enviado' ? m.actualSetorId : null,
    was_reassigned: m.wasReassigned,
    clientes: { nome: m.name ?? m.phone, telefone: m.phone },
  };
}

/** The campaign reads; every read is scoped by company (another company's campaign is 404). */
export class ReadCampaigns {
  constructor(private readonly repos: Repositories) {}

  async list(companyId: string, status: CampaignStatus | undefined, page: PageRequest): Promise<Page<CampaignListItem>> {
    const found = await this.repos.campaigns.listByCompany(companyId, status ? { status } : {}, page);
    return { ...found, items: found.items.map(listItem) };
  }

  async detail(companyId: string, id: string): Promise<CampaignDetail> {
    return campaignDetail(await this.campaign(companyId, id));
  }

  async messages(companyId: string, id: string, status: PublicMessageStatus | undefined, page: PageRequest): Promise<Page<CampaignMessageDetail>> {
    const campaign = await this.campaign(companyId, id);
    const found = await this.repos.campaigns.listMessages(campaign.id, status ? { status } : {}, page);
    return { ...found, items: found.items.map(messageDetail) };
  }

  async recipients(companyId: string, id: string, filter: { status?: PublicMessageStatus; q?: string }, page: PageRequest): Promise<Page<CampaignRecipientItem>> {
    const campaign = await this.campaign(companyId, id);
    const found = await this.repos.campaigns.listMessages(campaign.id, filter, page);
    return {
      ...found,
      items: found.items.map((m) => ({
        id: m.id,
        client_id: m.contactId,
        nome: m.name ?? m.phone,
        telefone: m.phone,
        status: publicMessageStatus(m.status),
        erro_codigo: m.errorCode,
        sent_at: m.sentAt?.toISOString() ?? null,
      })),
    };
  }

  private async campaign(companyId: string, id: string): Promise<Campaign> {
    const campaign = await this.repos.campaigns.findByIdInCompany(companyId, id);
    if (!campaign) throw new NotFoundError('Campaign', { id });
    return campaign;
  }
}
