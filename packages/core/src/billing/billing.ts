/** The three prepaid balances of `GET /v1/billing/balance` (business.md §6). */
export const CreditKinds = ['messages', 'ai_credits', 'lead_credits'] as const;
export type CreditKind = (typeof CreditKinds)[number];
/** Kinds kept in the billing area's own table (`messages` is the company's `avulso` balance). */
export type StoredCreditKind = Exclude<CreditKind, 'messages'>;

/** Default low-balance thresholds (business.md §6); `ai_credits` has none unless the operator sets one. */
export const DEFAULT_LOW_BALANCE_THRESHOLDS: Readonly<Record<CreditKind, number | null>> = { messages: 100, ai_credits: null, lead_credits: 50 };

/** The operator's thresholds of a company (`PATCH /admin/v1/companies/:id` `low_balance_thresholds`); null: the default. */
export type LowBalanceThresholds = Partial<Record<CreditKind, number | null>>;

export function effectiveThresholds(overrides: LowBalanceThresholds): Record<CreditKind, number | null> {
  const out = { ...DEFAULT_LOW_BALANCE_THRESHOLDS };
  for (const kind of CreditKinds) {
    const v = overrides[kind];
    if (v !== undefined && v !== null) out[kind] = v;
  }
  return out;
}

export type LowBalanceLevel = 'low' | 'exhausted';

/**
 * The alert a debit from `before` to `after` raises, or null: `exhausted` when it reaches 0,
 * `low` when it crosses the threshold downwards (before above it, after at or below it).
 * Unlimited companies never get one.
 */
export function lowBalanceLevel(before: number, after: number, threshold: number | null): LowBalanceLevel | null {
  if (after >= before) return null;
  if (after <= 0 && before > 0) return 'exhausted';
  if (threshold !== null && before > threshold && after <= threshold) return 'low';
  return null;
}

/** Payment methods of the operator's payments route. */
export const PaymentMethods = ['pix', 'boleto', 'card', 'manual'] as const;
export type PaymentMethod = (typeof PaymentMethods)[number];

/** A payment recorded by the operator: it credits `units` of one kind. */
export interface Payment {
  id: string;
  companyId: string;
  kind: CreditKind;
  units: number;
  /** Centavos. */
  amountCents: number;
  method: PaymentMethod;
  /** Unique per company: a replay answers the payment already recorded. */
  externalRef: string;
  balanceAfter: number;
  paidAt: Date;
  createdAt: Date;
}
