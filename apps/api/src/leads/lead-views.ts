import type { EmailMxResult, Lead, LeadSearch, Page, SaveLeadsResult } from '@carteiro/core';

export function leadView(lead: Lead) {
  return {
    cnpj: lead.cnpj,
    razao_social: lead.razaoSocial,
    nome_fantasia: lead.nomeFantasia,
    cnae_principal: lead.cnaePrincipal,
    situacao: lead.situacao,
    porte: lead.porte,
    is_mei: lead.isMei,
    address: {
      street: lead.address.street,
      number: lead.address.number,
      district: lead.address.district,
      city: lead.address.city,
      uf: lead.address.uf,
      postal_code: lead.address.postalCode,
      ibge_code: lead.address.ibgeCode,
    },
    phones: lead.phones,
    email: lead.email,
  };
}

export function leadSearchView(search: LeadSearch, items: Page<Lead>) {
  return {
    id: search.id,
    status: search.status,
    source: search.source,
    total: search.total,
    returned: search.returned,
    credits_used: search.creditsUsed,
    dataset_month: search.datasetMonth,
    error: search.error,
    created_at: search.createdAt.toISOString(),
    completed_at: search.completedAt?.toISOString() ?? null,
    expires_at: search.expiresAt.toISOString(),
    items: items.items.map(leadView),
    page: items.page,
    limit: items.limit,
    totalPages: items.totalPages,
  };
}

export function savedLeadsView(result: SaveLeadsResult) {
  return {
    created: result.created,
    updated: result.updated,
    skipped: result.skipped,
    results: result.results.map((r) => ({ cnpj: r.cnpj, phone: r.phone, status: r.status, contact_id: r.contactId, filled: r.filled, reason: r.reason })),
  };
}

export function emailMxView(r: EmailMxResult) {
  return { email: r.email, status: r.status, mx: r.mx, implicit_mx: r.implicitMx, reason: r.reason };
}
