import type { PageRequest } from '../../shared/pagination.js';
import { paginate, type InMemoryStore } from '../../shared/testing/in-memory-store.js';
import type { CreditKind, LowBalanceLevel, LowBalanceThresholds, Payment, StoredCreditKind } from '../billing.js';
import type { BillingRepositories, BillingRepository } from '../billing-repository.js';

// Tables are looked up on every call: a rolled-back transaction replaces the store's maps.
const balances = (store: InMemoryStore) => store.table('billingBalances', () => new Map<string, number>());
const payments = (store: InMemoryStore) => store.table('billingPayments', () => new Map<string, Payment>());
const thresholds = (store: InMemoryStore) => store.table('billingThresholds', () => new Map<string, LowBalanceThresholds>());
const alerts = (store: InMemoryStore) => store.table('billingAlerts', () => new Map<string, true>());
const alertSeq = (store: InMemoryStore) => store.table('billingAlertSeq', () => ({ n: 0 }));

export class InMemoryBillingRepository implements BillingRepository {
  constructor(private readonly store: InMemoryStore) {}
  async balances(companyId: string) {
    const b = balances(this.store);
    return { ai_credits: b.get(`${companyId}:ai_credits`) ?? 0, lead_credits: b.get(`${companyId}:lead_credits`) ?? 0 };
  }
  async adjust(companyId: string, kind: StoredCreditKind, delta: number) {
    const key = `${companyId}:${kind}`;
    const next = (balances(this.store).get(key) ?? 0) + delta;
    if (next < 0) return null;
    balances(this.store).set(key, next);
    return next;
  }
  async insertPayment(payment: Payment) {
    if ([...payments(this.store).values()].some((p) => p.companyId === payment.companyId && p.externalRef === payment.externalRef)) return false;
    payments(this.store).set(payment.id, structuredClone(payment));
    return true;
  }
  async findPaymentByExternalRef(companyId: string, externalRef: string) {
    const found = [...payments(this.store).values()].find((p) => p.companyId === companyId && p.externalRef === externalRef);
    return found ? structuredClone(found) : null;
  }
  async listPayments(companyId: string, page: PageRequest) {
    const list = [...payments(this.store).values()]
      .filter((p) => p.companyId === companyId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
    return paginate(list.map((p) => structuredClone(p)), page);
  }
  async thresholds(companyId: string) {
    return { ...(thresholds(this.store).get(companyId) ?? {}) };
  }
  async setThresholds(companyId: string, value: LowBalanceThresholds) {
    thresholds(this.store).set(companyId, { ...value });
  }
  async claimAlert(companyId: string, kind: CreditKind, level: LowBalanceLevel) {
    const key = `${companyId}:${kind}:${level}`;
    if (alerts(this.store).has(key)) return null;
    alerts(this.store).set(key, true);
    if (level === 'exhausted') alerts(this.store).set(`${companyId}:${kind}:low`, true);
    const seq = alertSeq(this.store);
    seq.n += 1;
    return `alert-${seq.n}`;
  }
  async rearmAlerts(companyId: string, kind: CreditKind) {
    alerts(this.store).delete(`${companyId}:${kind}:low`);
    alerts(this.store).delete(`${companyId}:${kind}:exhausted`);
  }
}

export function inMemoryBillingRepositories(store: InMemoryStore): BillingRepositories {
  return { billing: new InMemoryBillingRepository(store) };
}
