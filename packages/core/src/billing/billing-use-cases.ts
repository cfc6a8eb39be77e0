import { displayedBalance, type CompanyRepositories } from '../companies/index.js';
import type { Clock } from '../shared/clock.js';
import { NotFoundError, ValidationError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Page, PageRequest } from '../shared/pagination.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import { CreditKinds, effectiveThresholds, type CreditKind, type LowBalanceThresholds, type Payment, type PaymentMethod } from './billing.js';
import type { BillingRepositories } from './billing-repository.js';

/** `GET /v1/billing/balance`. */
export interface BalanceView {
  modality: string;
  unlimited: boolean;
  balances: Record<CreditKind, number>;
  thresholds: Record<CreditKind, number | null>;
  /** Kinds at or below their threshold (or at 0); never for unlimited companies. */
  low: CreditKind[];
}

/** Reads the three balances, the thresholds in force and which kinds are low. */
export class GetBalance {
  constructor(private readonly repos: Repositories<BillingRepositories & CompanyRepositories>) {}
  async execute(companyId: string): Promise<BalanceView> {
    const company = await this.repos.companies.findById(companyId);
    if (!company) throw new NotFoundError('Company');
    const stored = await this.repos.billing.balances(companyId);
    const thresholds = effectiveThresholds(await this.repos.billing.thresholds(companyId));
    const balances: Record<CreditKind, number> = {
      messages: displayedBalance(company),
      ai_credits: company.unlimited ? -1 : stored.ai_credits,
      lead_credits: company.unlimited ? -1 : stored.lead_credits,
    };
    // The messages balance only counts for companies that pay per message.
    const charged: Record<CreditKind, boolean> = { messages: company.modality === 'avulso', ai_credits: true, lead_credits: true };
    const low = company.unlimited
      ? []
      : CreditKinds.filter((k) => charged[k] && (balances[k] <= 0 || (thresholds[k] !== null && balances[k] <= thresholds[k]!)));
    return { modality: company.modality, unlimited: company.unlimited, balances, thresholds, low };
  }
}

export interface RecordPaymentInput {
  kind: CreditKind;
  units: number;
  amountCents: number;
  method: PaymentMethod;
  externalRef: string;
  paidAt?: Date;
}

/**
 * `POST /admin/v1/companies/:id/payments`: credits `units` of a kind and records the payment
 * with `payment.received` in the same transaction, re-arming the kind's low-balance alert.
 * Idempotent by external reference: a replay answers the payment already recorded (`replayed`).
 * The company row is locked first, so concurrent replays credit once.
 */
export class RecordPayment {
  constructor(
    private readonly uow: UnitOfWork<BillingRepositories & CompanyRepositories>,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}
  async execute(companyId: string, input: RecordPaymentInput): Promise<{ payment: Payment; replayed: boolean }> {
    if (!Number.isInteger(input.units) || input.units < 1) throw new ValidationError('units must be a positive integer', { field: 'units' });
    return this.uow.transaction(async (repos) => {
      const company = await repos.companies.findByIdForUpdate(companyId);
      if (!company) throw new NotFoundError('Company');
      const earlier = await repos.billing.findPaymentByExternalRef(companyId, input.externalRef);
      if (earlier) return { payment: earlier, replayed: true };
      let balanceAfter: number;
      if (input.kind === 'messages') {
        balanceAfter = (await repos.companies.adjustBalance(companyId, input.units)) ?? company.avulsoBalance;
      } else {
        balanceAfter = (await repos.billing.adjust(companyId, input.kind, input.units)) ?? 0;
      }
      const now = this.clock.now();
      const payment: Payment = {
        id: this.ids.newId(),
        companyId,
        kind: input.kind,
        units: input.units,
        amountCents: input.amountCents,
        method: input.method,
        externalRef: input.externalRef,
        balanceAfter,
        paidAt: input.paidAt ?? now,
        createdAt: now,
      };
      await repos.billing.insertPayment(payment);
      await repos.billing.rearmAlerts(companyId, input.kind);
      await repos.events.record([
        {
          id: this.ids.newId(),
          event: 'payment.received',
          companyId,
          setorId: null,
          occurredAt: now,
          data: {
            paymentId: payment.id,
            kind: payment.kind,
            units: payment.units,
            amount: payment.amountCents / 100,
            method: payment.method,
            externalRef: payment.externalRef,
            balanceAfter,
            paidAt: payment.paidAt.toISOString(),
          },
          actor: { user_id: null, source: 'admin' },
        },
      ]);
      return { payment, replayed: false };
    });
  }
}

/** `GET /admin/v1/companies/:id/payments`: newest first. */
export class ListPayments {
  constructor(private readonly repos: Repositories<BillingRepositories & CompanyRepositories>) {}
  async execute(companyId: string, page: PageRequest): Promise<Page<Payment>> {
    if (!(await this.repos.companies.findById(companyId))) throw new NotFoundError('Company');
    return this.repos.billing.listPayments(companyId, page);
  }
}

/** The operator's low-balance thresholds of a company (null: the default). */
export class SetLowBalanceThresholds {
  constructor(private readonly uow: UnitOfWork<BillingRepositories & CompanyRepositories>) {}
  async execute(companyId: string, thresholds: LowBalanceThresholds): Promise<Record<CreditKind, number | null>> {
    return this.uow.transaction(async (repos) => {
      if (!(await repos.companies.findById(companyId))) throw new NotFoundError('Company');
      return writeLowBalanceThresholds(repos, companyId, thresholds);
    });
  }
}

/** Merges a change of a company's low-balance thresholds into its stored ones in the caller's transaction; answers those in force. */
export async function writeLowBalanceThresholds(repos: Repositories<BillingRepositories>, companyId: string, thresholds: LowBalanceThresholds): Promise<Record<CreditKind, number | null>> {
  const merged = { ...(await repos.billing.thresholds(companyId)), ...thresholds };
  if (Object.keys(thresholds).length > 0) await repos.billing.setThresholds(companyId, merged);
  return effectiveThresholds(merged);
}
