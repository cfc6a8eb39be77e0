import { fromCents, type ClientRef, type FunnelStage, type OpportunityDetail, type OpportunityHistoryEntry, type OpportunityProduct, type Product } from '@carteiro/core';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function stageView(s: FunnelStage) {
  return { id: s.id, name: s.name, position: s.position, is_won: s.isWon, is_lost: s.isLost, win_probability: s.winProbability, color: s.color };
}

export function productView(p: Product) {
  return {
    id: p.id,
    name: p.name,
    price: fromCents(p.price),
    sku: p.sku,
    unit: p.unit,
    description: p.description,
    active: p.active,
    created_at: iso(p.createdAt),
    updated_at: iso(p.updatedAt),
  };
}

export function clientView(c: ClientRef | null) {
  return c ? { id: c.id, name: c.name, phone: c.phone } : null;
}

function lineView(l: OpportunityProduct) {
  return { product_id: l.productId, name: l.name, quantity: l.quantity, unit_price: fromCents(l.unitPrice), discount_percent: l.discountPercent, total: fromCents(l.total) };
}

/** History values in the API's units: money in reais, product lines in their view. */
function changeValue(field: string, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (field === 'value' && typeof value === 'number') return fromCents(value);
  if (field === 'products' && Array.isArray(value)) return (value as OpportunityProduct[]).map(lineView);
  return value;
}

function historyView(h: OpportunityHistoryEntry) {
  return {
    at: h.at.toISOString(),
    actor: h.actor,
    kind: h.kind,
    changes: Object.fromEntries(Object.entries(h.changes).map(([field, c]) => [field, { from: changeValue(field, c.from), to: changeValue(field, c.to) }])),
  };
}

export function opportunityView(d: OpportunityDetail) {
  const o = d.opportunity;
  return {
    id: o.id,
    title: o.title,
    value: fromCents(o.value ?? o.productsTotal),
    products_total: fromCents(o.productsTotal),
    status: o.status,
    stage: d.stage ? { id: d.stage.id, name: d.stage.name, position: d.stage.position, is_won: d.stage.isWon, is_lost: d.stage.isLost } : null,
    win_probability: d.stage?.winProbability ?? null,
    client: clientView(d.client),
    assignee_id: o.assigneeId,
    ticket_id: o.ticketId,
    description: o.description,
    expected_close_date: o.expectedCloseDate,
    lost_reason: o.lostReason,
    closed_at: iso(o.closedAt),
    products: o.products.map(lineView),
    created_at: iso(o.createdAt),
    updated_at: iso(o.updatedAt),
  };
}

export function opportunityDetailView(d: OpportunityDetail) {
  return { ...opportunityView(d), history: (d.history ?? []).map(historyView) };
}
