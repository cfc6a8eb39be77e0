import { systemActor, type DomainEvent, type EventActor } from '../shared/domain-event.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Campaign } from './campaign.js';
import type { CampaignMessage } from './campaign-message.js';

/** campaign.completed with the specification's data (and the campaign's callback_url to call). */
export function campaignCompletedEvent(campaign: Campaign, ids: IdGenerator, at: Date, actor: EventActor = systemActor): DomainEvent {
  return {
    id: ids.newId(),
    event: 'campaign.completed',
    companyId: campaign.companyId,
    setorId: campaign.setorIds[0] ?? null,
    occurredAt: at,
    data: {
      campaignId: campaign.id,
      totalDestinatarios: campaign.totals.total,
      totalEnviados: campaign.totals.enviados,
      totalFalhas: campaign.totals.falhas,
      totalPulados: campaign.totals.pulados,
      cancelledByUser: campaign.cancelledByUser,
    },
    actor,
    callbackUrl: campaign.callbackUrl,
  };
}

export function campaignStartedEvent(campaign: Campaign, ids: IdGenerator, at: Date): DomainEvent {
  return {
    id: ids.newId(),
    event: 'campaign.started',
    companyId: campaign.companyId,
    setorId: campaign.setorIds[0] ?? null,
    occurredAt: at,
    data: { campaignId: campaign.id, setorId: campaign.setorIds[0] ?? null, userId: null },
    actor: systemActor,
  };
}

export function campaignPausedEvent(campaign: Campaign, ids: IdGenerator, at: Date, actor: EventActor): DomainEvent {
  return {
    id: ids.newId(),
    event: 'campaign.paused',
    companyId: campaign.companyId,
    setorId: campaign.setorIds[0] ?? null,
    occurredAt: at,
    data: { campaignId: campaign.id },
    actor,
  };
}

/** campaign.failed also reaches the callback_url: the campaign has finished. */
export function campaignFailedEvent(campaign: Campaign, ids: IdGenerator, at: Date, error: string): DomainEvent {
  return {
    id: ids.newId(),
    event: 'campaign.failed',
    companyId: campaign.companyId,
    setorId: campaign.setorIds[0] ?? null,
    occurredAt: at,
    data: { campaignId: campaign.id, error },
    actor: systemActor,
    callbackUrl: campaign.callbackUrl,
  };
}

/** message.sent or message.failed with the specification's data fields. */
export function messageOutcomeEvent(message: CampaignMessage, ids: IdGenerator, at: Date): DomainEvent {
  const sent = message.status === 'enviado';
  return {
    id: ids.newId(),
    event: sent ? 'message.sent' : 'message.failed',
    companyId: message.companyId,
    setorId: message.actualSetorId ?? message.setorId,
    occurredAt: at,
    data: {
      campaignId: message.campaignId,
      detailId: message.id,
      recipientPhone: message.phone,
      recipientName: message.name ?? message.phone,
      status: sent ? 'sent' : 'failed',
      error: sent ? null : message.error,
      error_code: sent ? null : message.errorCode,
      actual_setor_id: message.actualSetorId,
      was_reassigned: message.wasReassigned,
    },
    actor: systemActor,
  };
}
