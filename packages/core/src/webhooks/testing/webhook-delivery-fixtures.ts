import type { DomainEvent } from '../../shared/domain-event.js';

/** The `message.sent` event (of company c1, box s1) that the delivery tests deliver, occurred `occurredAt`. */
export const messageSentEvent = (occurredAt: Date): DomainEvent => ({
  id: 'e1',
  event: 'message.sent',
  companyId: 'c1',
  setorId: 's1',
  occurredAt,
  data: { campaignId: 'k1' },
  actor: { user_id: null, source: 'system' },
});
