import { fromCents, type ContractDetail, type ContractTemplate, type SentContract } from '@carteiro/core';
import { clientView } from '../crm/crm-views.js';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** `+5511987650300` → `+55119****0300`: enough to recognise, not to contact. */
export function maskPhone(phone: string): string {
  if (phone.length <= 9) return phone.replace(/\d(?=\d{2})/g, '*');
  return `${phone.slice(0, 5)}${'*'.repeat(phone.length - 9)}${phone.slice(-4)}`;
}

/**
 * The sanitised contract (business.md §4): never the PDF bytes, the provider's tokens or refs,
 * nor the signing links.
 */
export function contractView(d: ContractDetail) {
  const c = d.contract;
  return {
    id: c.id,
    title: c.title,
    status: c.status,
    value: c.value === null ? null : fromCents(c.value),
    client: clientView(d.client),
    opportunity_id: c.opportunityId,
    template_id: c.templateId,
    variables: c.variables,
    content: c.content,
    signers: c.signers.map((s) => ({
      id: s.id,
      name: s.name,
      phone: maskPhone(s.phone),
      status: s.status,
      signed_at: iso(s.signedAt),
      refusal_reason: s.refusalReason,
    })),
    document: c.document ? { pages: c.document.pages, sha256: c.document.sha256 } : null,
    delivery: c.delivery ? { setor_id: c.delivery.setorId, message_ids: c.delivery.messageIds } : null,
    provider: c.provider,
    expires_in_days: c.expiresInDays,
    sent_at: iso(c.sentAt),
    expires_at: iso(c.expiresAt),
    signed_at: iso(c.signedAt),
    refused_at: iso(c.refusedAt),
    cancelled_at: iso(c.cancelledAt),
    created_at: iso(c.createdAt),
    updated_at: iso(c.updatedAt),
  };
}

export function sentContractView(s: SentContract) {
  return {
    id: s.id,
    status: s.status,
    sent_at: s.sentAt,
    expires_at: s.expiresAt,
    signers: s.signers.map((x) => ({ id: x.id, name: x.name, phone: maskPhone(x.phone), status: x.status })),
    delivery: { setor_id: s.delivery.setorId, message_ids: s.delivery.messageIds },
    duration_ms: s.durationMs,
  };
}

export function templateView(t: ContractTemplate) {
  return { id: t.id, name: t.name, description: t.description, variables: t.variables, body: t.body, active: t.active };
}
