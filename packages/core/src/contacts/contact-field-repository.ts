import type { ContactFieldDefinition } from './contact-field.js';

/** Stores the company's custom-field definitions. */
export interface ContactFieldRepository {
  /** Inserts unless the key exists in the company; answers the existing definition then (null when inserted). */
  insert(definition: ContactFieldDefinition): Promise<ContactFieldDefinition | null>;
  /** Writes label and options (type and key never change). */
  update(definition: ContactFieldDefinition): Promise<void>;
  delete(id: string): Promise<void>;
  /** By id in any company (operator routes), the row locked. */
  findByIdForUpdate(id: string): Promise<ContactFieldDefinition | null>;
  /** The company's definitions ordered by key. */
  list(companyId: string): Promise<ContactFieldDefinition[]>;
  /**
   * The company's definitions of these keys (unknown keys left out), ordered by key, each kept from deletion until the
   * transaction ends: a contact written with their values either commits before a delete removes the values, or waits
   * for the delete and finds the key unknown.
   */
  listForUse(companyId: string, keys: readonly string[]): Promise<ContactFieldDefinition[]>;
  count(companyId: string): Promise<number>;
}
export const ContactFieldRepository = Symbol.for('carteiro.ContactFieldRepository');
