import type { IdGenerator } from '../shared/id-generator.js';
import type { Contact } from './contact.js';

/** One phone to find or create a contact for. */
export interface ContactEntry {
  /** E.164 (normalise first with `normalizePhone`). */
  phone: string;
  /** Used only when the contact is created. */
  name: string | null;
}

/** A contact returned by `ensureMany`, with whether this call created it. */
export interface EnsuredContact extends Contact {
  created: boolean;
}

/** The most phones one `ensureMany` call accepts (a campaign's recipient cap). */
export const MAX_ENSURE_CONTACTS = 10_000;

/**
 * Stores contacts. Every read is scoped by company (another company's contact reads as
 * missing), and phones match with or without the Brazilian ninth digit.
 */
export interface ContactRepository {
  /** Inserts a new contact; a contact with the same match key in the company is a conflict. */
  insert(contact: Contact): Promise<void>;
  findById(companyId: string, id: string): Promise<Contact | null>;
  /** The contact of an E.164 number, matching either spelling of a Brazilian mobile. */
  findByPhone(companyId: string, phone: string): Promise<Contact | null>;
  /** The company's contacts among `ids`, in no particular order; unknown ids are left out. */
  findManyByIds(companyId: string, ids: readonly string[]): Promise<Contact[]>;
  /**
   * Finds or creates the contacts of up to {@link MAX_ENSURE_CONTACTS} phones in a few
   * statements (campaign creation). The answer is aligned with `entries`: item `i` is the
   * contact of `entries[i].phone`. Phones sharing a match key get one contact (the first
   * entry's name is used when it is created). Existing contacts keep their name.
   * Safe against concurrent calls for the same phones.
   */
  ensureMany(companyId: string, entries: readonly ContactEntry[], ids: IdGenerator, now: Date): Promise<EnsuredContact[]>;
}
export const ContactRepository = Symbol.for('carteiro.ContactRepository');
