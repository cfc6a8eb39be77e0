import { eventMaker, systemActor, type DomainEvent, type EventActor, type EventName } from '../shared/domain-event.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Campaign } from './campaign.js';
import type { CampaignMessage } from './campaign-message.js';

/** An event about a campaign: of its company and its first box. */
function campaignEvent(campaign: Campaign, ids: IdGenerator, at: Date, actor: EventActor, event: EventName, data: Record<string, unknown>): DomainEvent {
  return eventMaker(ids, campaign.companyId, at, actor)(event, data, campaign.setorIds[0] ?? null);
}

/** campaign.completed with the specification's data (and the campaign's callback_url to call). */
export function campaignCompletedEvent(campaign: Campaign, ids: IdGenerator, at: Date, actor: EventActor = systemActor): DomainEvent {
  const data = {
    campaignId: campaign.id,
    totalDestinatarios: campaign.totals.total,
    totalEnviados: campaign.totals.enviados,
    totalFalhas: campaign.totals.falhas,
    totalPulados: campaign.totals.pulados,
    cancelledByUser: campaign.cancelledByUser,
  };
  return { ...campaignEvent(campaign, ids, at, actor, 'campaign.completed', data), callbackUrl: campaign.callbackUrl };
}

export function campaignStartedEvent(campaign: Campaign, ids: IdGenerator, at: Date): DomainEvent {
  return campaignEvent(campaign, ids, at, systemActor, 'campaign.started', { campaignId: campaign.id, setorId: campaign.setorIds[0] ?? null, userId: null });
}

export function campaignPausedEvent(campaign: Campaign, ids: IdGenerator, at: Date, actor: EventActor): DomainEvent {
  return campaignEvent(campaign, ids, at, actor, 'campaign.paused', { campaignId: campaign.id });
}

/** campaign.failed also reaches the callback_url: the campaign has finished. */
export function campaignFailedEvent(campaign: Campaign, ids: IdGenerator, at: Date, error: string): DomainEvent {
  return { ...campaignEvent(campaign, ids, at, systemActor, 'campaign.failed', { campaignId: campaign.id, error }), callbackUrl: campaign.callbackUrl };
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
