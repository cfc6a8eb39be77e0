import type { Page, PageRequest } from '../shared/pagination.js';
import type { Webhook } from './webhook.js';

/** Storage of webhook subscriptions, always scoped by company for reads by clients. */
export interface WebhookRepository {
  insert(webhook: Webhook): Promise<void>;
  update(webhook: Webhook): Promise<void>;
  /** Removes the webhook and its delivery log; false when it was not there. */
  delete(companyId: string, id: string): Promise<boolean>;
  findByIdInCompany(companyId: string, id: string): Promise<Webhook | null>;
  /** As findByIdInCompany, the row locked until the transaction ends (concurrent edits apply one after the other). */
  findByIdInCompanyForUpdate(companyId: string, id: string): Promise<Webhook | null>;
  /** Oldest first. */
  listByCompany(companyId: string, page: PageRequest): Promise<Page<Webhook>>;
  /** Every active webhook of these companies (the fan-out filters by event name). */
  activeOfCompanies(companyIds: readonly string[]): Promise<Webhook[]>;
}
export const WebhookRepository = Symbol.for('carteiro.WebhookRepository');
