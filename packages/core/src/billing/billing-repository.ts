import type { Page, PageRequest } from '../shared/pagination.js';
import type { CreditKind, LowBalanceLevel, LowBalanceThresholds, Payment, StoredCreditKind } from './billing.js';

/** Balances of lead and assistant credits, payments, thresholds and the low-balance alert state of companies. */
export interface BillingRepository {
  /** The stored balances (0 for a kind never credited). */
  balances(companyId: string): Promise<Record<StoredCreditKind, number>>;
  /**
   * Atomically moves a balance by `delta` unless it would go below zero: the new balance, or null
   * when the debit was refused (concurrent debits never take it below zero).
   */
  adjust(companyId: string, kind: StoredCreditKind, delta: number): Promise<number | null>;
  /** Inserts a payment; false (nothing written) when the company already has one with its external reference. */
  insertPayment(payment: Payment): Promise<boolean>;
  findPaymentByExternalRef(companyId: string, externalRef: string): Promise<Payment | null>;
  /** Newest first. */
  listPayments(companyId: string, page: PageRequest): Promise<Page<Payment>>;
  thresholds(companyId: string): Promise<LowBalanceThresholds>;
  setThresholds(companyId: string, thresholds: LowBalanceThresholds): Promise<void>;
  /**
   * Claims the alert of one level of a kind: a new alert id the first time since the kind was last
   * re-armed, null afterwards (so each downward crossing alerts once, even under concurrent debits).
   * Claiming `exhausted` also claims `low`.
   */
  claimAlert(companyId: string, kind: CreditKind, level: LowBalanceLevel): Promise<string | null>;
  /** Re-arms both levels of a kind (a payment). */
  rearmAlerts(companyId: string, kind: CreditKind): Promise<void>;
}
export const BillingRepository = Symbol.for('carteiro.BillingRepository');

/** The billing area's repositories. */
export interface BillingRepositories {
  billing: BillingRepository;
}
