import type { Page, PageRequest } from '../shared/pagination.js';
import type { Setor } from './setor.js';

/** Stores setores. Every read is scoped by company, so another company's setor reads as missing. */
export interface SetorRepository {
  insert(setor: Setor): Promise<void>;
  update(setor: Setor): Promise<void>;
  findById(id: string): Promise<Setor | null>;
  /**
   * {@link findById} that, when the setor exists, also takes the transaction-scoped advisory lock `lockKey` in the same
   * statement (the inbound path's contact lock, saving a round trip); waits for the lock like the lock alone would.
   */
  findByIdLocking(id: string, lockKey: string): Promise<Setor | null>;
  /**
   * The setores of `ids` that exist, read with the advisory locks `lockKeys` taken in the same statement, one after the
   * other in the order given, when at least one of them exists (an inbound group's setores and contact locks: one round trip).
   */
  findAllLocking(ids: readonly string[], lockKeys: readonly string[]): Promise<Setor[]>;
  findByIdInCompany(companyId: string, id: string): Promise<Setor | null>;
  listByCompany(companyId: string, page: PageRequest): Promise<Page<Setor>>;
  /** All setores of the company, oldest first. */
  allOfCompany(companyId: string): Promise<Setor[]>;
}
