import type { Company } from './company.js';

/** Stores companies. */
export interface CompanyRepository {
  insert(company: Company): Promise<void>;
  update(company: Company): Promise<void>;
  findById(id: string): Promise<Company | null>;
  /** The company, locked until the transaction ends (serialises balance and limit checks). */
  findByIdForUpdate(id: string): Promise<Company | null>;
  /**
   * Atomically moves the prepaid balance by `delta` (negative to debit) unless it would go
   * below zero. Returns the new balance, or null when the debit was refused.
   */
  adjustBalance(id: string, delta: number): Promise<number | null>;
}
