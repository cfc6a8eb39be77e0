import type { KeyMode } from '../api-keys/index.js';
import type { Company } from '../companies/index.js';
import type { DomainEvent, EventOutbox } from '../shared/domain-event.js';
import { DomainError } from '../shared/errors.js';
import { effectiveThresholds, lowBalanceLevel, type CreditKind, type StoredCreditKind } from './billing.js';
import type { BillingRepositories } from './billing-repository.js';

/**
 * After a debit of `kind` from `before` to `after`, inside the debit's transaction: records
 * `billing.low_balance` when the debit crossed the kind's threshold (level low) or reached 0
 * (exhausted), once per crossing until a payment re-arms the kind. Nothing for unlimited
 * companies or test keys. Repositories without the billing area (older callers' narrow types)
 * are accepted and skipped, so a debit site only adds one call.
 */
export async function noteBalanceDebit(
  repos: Partial<BillingRepositories> & { events?: EventOutbox },
  company: Pick<Company, 'id' | 'unlimited' | 'modality'>,
  kind: CreditKind,
  before: number,
  after: number,
  now: Date,
  mode: KeyMode = 'live',
): Promise<void> {
  if (!repos.billing || !repos.events || company.unlimited || mode === 'test') return;
  const threshold = effectiveThresholds(await repos.billing.thresholds(company.id))[kind];
  const level = lowBalanceLevel(before, after, threshold);
  if (!level) return;
  const alertId = await repos.billing.claimAlert(company.id, kind, level);
  if (!alertId) return;
  const event: DomainEvent = {
    id: alertId,
    event: 'billing.low_balance',
    companyId: company.id,
    setorId: null,
    occurredAt: now,
    data: { kind, balance: after, threshold, level, modality: company.modality },
    actor: { user_id: null, source: 'system' },
  };
  await repos.events.record([event]);
}

/** 402 when a company's credits of a kind are exhausted. */
export function creditsExhausted(kind: StoredCreditKind, balance: number, required: number): DomainError {
  return new DomainError('INSUFFICIENT_CREDITS', `No ${kind.replace('_', ' ')} left: recharge to continue`, { kind, balance, required });
}

/**
 * Debits up to `wanted` units of a stored kind (never below zero): the units taken, at most the
 * balance (0 when it is empty). Unlimited companies and test keys take everything without a debit.
 * Records `billing.low_balance` when the debit crosses the threshold.
 */
export async function debitUpTo(
  repos: BillingRepositories & { events: EventOutbox },
  company: Pick<Company, 'id' | 'unlimited' | 'modality'>,
  kind: StoredCreditKind,
  wanted: number,
  now: Date,
  mode: KeyMode,
): Promise<{ taken: number; charged: number }> {
  if (wanted <= 0) return { taken: 0, charged: 0 };
  if (company.unlimited || mode === 'test') return { taken: wanted, charged: 0 };
  for (;;) {
    const balance = (await repos.billing.balances(company.id))[kind];
    const take = Math.min(balance, wanted);
    if (take <= 0) return { taken: 0, charged: 0 };
    const after = await repos.billing.adjust(company.id, kind, -take);
    if (after === null) continue; // a concurrent debit took some: read again
    await noteBalanceDebit(repos, company, kind, after + take, after, now, mode);
    return { taken: take, charged: take };
  }
}
