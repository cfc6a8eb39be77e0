/** Every event name of the specification, in its order. */
export const EventNames = [
  'campaign.started',
  'campaign.completed',
  'campaign.failed',
  'campaign.paused',
  'message.sent',
  'message.delivered',
  'message.read',
  'message.failed',
  'message.received',
  'conversation.created',
  'conversation.assigned',
  'conversation.rated',
  'conversation.status_changed',
  'contact.created',
  'contact.tagged',
  'contact.merged',
  'appointment.created',
  'appointment.rescheduled',
  'appointment.cancelled',
  'opportunity.created',
  'opportunity.won',
  'opportunity.lost',
  'contract.sent',
  'contract.signed',
  'contract.refused',
  'lead.search_completed',
  'lead.saved_to_crm',
  'import.completed',
  'import.failed',
  'payment.received',
  'billing.low_balance',
  'channel.session_connected',
  'channel.session_disconnected',
] as const;
export type EventName = (typeof EventNames)[number];

export function isEventName(value: string): value is EventName {
  return (EventNames as readonly string[]).includes(value);
}

/** Who caused an event: a user of the company, or the system itself. */
export interface EventActor {
  user_id: string | null;
  source: string;
}

/**
 * A fact recorded by a use case in the same transaction as the change that caused it.
 * Its JSON form is the webhook envelope of the specification.
 */
export interface DomainEvent {
  id: string;
  event: EventName;
  companyId: string;
  setorId: string | null;
  occurredAt: Date;
  data: Record<string, unknown>;
  actor: EventActor;
  /** Set for events that must also reach a campaign's `callback_url`. */
  callbackUrl?: string | null;
}

/** The webhook envelope of the specification for one event. */
export interface EventEnvelope {
  event: EventName;
  version: 'v1';
  timestamp: string;
  empresa_id: string;
  setor_id: string | null;
  data: Record<string, unknown>;
  actor: EventActor;
}

export function toEnvelope(event: DomainEvent): EventEnvelope {
  return {
    event: event.event,
    version: 'v1',
    timestamp: event.occurredAt.toISOString(),
    empresa_id: event.companyId,
    setor_id: event.setorId,
    data: event.data,
    actor: event.actor,
  };
}

export const systemActor: EventActor = { user_id: null, source: 'system' };
export const apiActor: EventActor = { user_id: null, source: 'api' };

/** Makes the events of one change: each with a new id, of `companyId`, at `at`, by `actor`, and of no box unless one is given. */
export function eventMaker(ids: { newId(): string }, companyId: string, at: Date, actor: EventActor) {
  return (event: EventName, data: Record<string, unknown>, setorId: string | null = null): DomainEvent => ({ id: ids.newId(), event, companyId, setorId, occurredAt: at, data, actor });
}

/** Where use cases record events; written in the transaction of the change (the outbox pattern). */
export interface EventOutbox {
  record(events: readonly DomainEvent[]): Promise<void>;
  /** Deletes events that occurred before `before` and were already handed to the webhook fan-out; returns how many. */
  purgeBefore(before: Date): Promise<number>;
}
