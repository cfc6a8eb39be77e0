import type { Campaign } from '../index.js';
import { FRESH_CAMPAIGN_MESSAGE_FIELDS, type CampaignMessage } from '../index.js';

/** A campaign with every field set, for tests; override what the test is about. */
export function campaignFixture(overrides: Partial<Campaign> = {}): Campaign {
  const at = new Date('2026-01-15T12:00:00.000Z');
  return {
    id: 'c1',
    companyId: 'co1',
    apiKeyId: null,
    mode: 'live',
    name: 'Promo',
    title: null,
    description: null,
    status: 'pendente',
    content: {
      text: 'Olá {{nome}}',
      variants: [],
      mediaUrl: null,
      mediaType: null,
      mediaDelivery: null,
      mediaFilename: null,
      templateName: null,
      templateLanguage: null,
      templateComponents: null,
      templateRaw: null,
      templateVars: null,
    },
    antiBanLevel: 'seguro',
    distribution: 'interleaved',
    distributionMode: 'single',
    setorIds: ['s1'],
    executionMode: 'immediate',
    scheduledFor: null,
    waitingReason: null,
    callbackUrl: null,
    creditsReserved: 0,
    totals: { total: 1, enviados: 0, falhas: 0, pulados: 0 },
    error: null,
    cancelledByUser: false,
    createdAt: at,
    updatedAt: at,
    startedAt: null,
    finishedAt: null,
    ...overrides,
  };
}

export function messageFixture(overrides: Partial<CampaignMessage> = {}): CampaignMessage {
  const at = new Date('2026-01-15T12:00:00.000Z');
  return {
    id: 'm1',
    campaignId: 'c1',
    companyId: 'co1',
    seq: 0,
    contactId: null,
    phone: '+5511999990000',
    name: null,
    text: null,
    mediaUrl: null,
    mediaType: null,
    variables: null,
    status: 'pendente',
    assignedSetorId: 's1',
    setorId: 's1',
    ...FRESH_CAMPAIGN_MESSAGE_FIELDS,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}
