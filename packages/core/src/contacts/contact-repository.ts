import type { IdGenerator } from '../shared/id-generator.js';
import type { Page, PageRequest } from '../shared/pagination.js';
import type { Contact, CustomFieldValues } from './contact.js';

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

/** Filters of GET /v1/contacts (all optional, combined with AND). */
export interface ContactSearch {
  /** E.164: matches either spelling of a Brazilian mobile. */
  phone?: string;
  /**
   * What to look for, by its shape (see {@link contactQueryKind}): a phone-like text matches the end of the
   * phone's digits (either ninth-digit form); a text with `@` the start of the email; any other text part of the
   * name or the start of the email (case-insensitive).
   */
  q?: string;
  /** The assistant in effect at `now` (switched on and not paused). */
  iaAtiva?: boolean;
  /** Contacts holding every one of these tags. */
  tagIds?: readonly string[];
  /** Changed at or after this instant. */
  updatedSince?: Date;
}

/** A contact as lists show it: with its tags and its last inbound message. */
export interface ContactListItem extends Contact {
  tagIds: string[];
  lastInboundAt: Date | null;
}

/** Counters of the 360 view. */
export interface ContactStats {
  conversations: number;
  messagesSent: number;
  lastInboundAt: Date | null;
  lastOutboundAt: Date | null;
}

/** One row of an import batch, ready to write: E.164 phone, checked fields, the tags it adds. */
export interface ContactBatchRow {
  phone: string;
  name: string | null;
  email: string | null;
  customFields: CustomFieldValues;
  tagIds: readonly string[];
}

/** How an import writes: `fill` only empty fields, `overwrite` every field given, `create_only` never touches an existing contact. */
export type ContactImportMode = 'fill' | 'overwrite' | 'create_only';

/** What the database did with one row of a batch. */
export interface ContactBatchOutcome {
  contactId: string;
  /** `created`: inserted; `updated`: an existing contact changed (fields or tags); `unchanged`: nothing was written. */
  outcome: 'created' | 'updated' | 'unchanged';
  /** Tags newly linked to the contact by this row. */
  tagsAdded: string[];
}

/**
 * Stores contacts. Every read is scoped by company (another company's contact reads as
 * missing), and phones match with or without the Brazilian ninth digit.
 */
export interface ContactRepository {
  /** Inserts a new contact; a contact with the same match key in the company is a conflict. */
  insert(contact: Contact): Promise<void>;
  findById(companyId: string, id: string): Promise<Contact | null>;
  /** Like `findById`, the row locked until the transaction ends. */
  findByIdForUpdate(companyId: string, id: string): Promise<Contact | null>;
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
  /**
   * Inserts `contact` unless its match key exists in the company; either way answers the stored
   * contact with its row locked. Concurrent calls for one key make one contact (the losers wait
   * for the winner and read it).
   */
  insertOrLock(contact: Contact): Promise<{ contact: Contact; created: boolean }>;
  /**
   * {@link insertOrLock} for the inbound path, where it runs per message: the same answer and locks, in one round trip
   * whenever no concurrent writer of the key interferes (else as `insertOrLock`).
   */
  insertOrLockInbound(contact: Contact): Promise<{ contact: Contact; created: boolean }>;
  /** Writes name, email, custom fields, the assistant switch and pause, and `updatedAt`. */
  update(contact: Contact): Promise<void>;
  /** A page of the company's contacts matching `search`, newest first (`now` decides the assistant in effect). */
  search(companyId: string, search: ContactSearch, page: PageRequest, now: Date): Promise<Page<ContactListItem>>;
  /** The contact's conversation and message counters. */
  stats(companyId: string, contactId: string): Promise<ContactStats>;
  /**
   * Moves everything of `mergedId` to `survivorId` (conversations — joining those on the same
   * setor —, messages, tickets, tags, affinities, campaign messages) and deletes `mergedId`;
   * answers how many tickets moved. Call inside a transaction that already locked both rows.
   */
  moveAndDelete(companyId: string, survivorId: string, mergedId: string): Promise<{ movedTickets: number }>;
  /** A setor on which both contacts have an active (not closed) ticket, which a merge would make two; null when none. */
  activeTicketClash(survivorId: string, mergedId: string): Promise<string | null>;
  /** Removes one custom-field key from every contact of the company; answers how many had it. */
  removeCustomField(companyId: string, key: string, now: Date): Promise<number>;
  /**
   * Writes one import batch in a few statements: rows with new match keys are inserted, existing
   * contacts are written per `mode` (see `applyContactWrite`), and every row's tags are linked.
   * Rows must have distinct match keys. The answer is aligned with `rows` and says what the
   * database actually did.
   */
  writeBatch(companyId: string, rows: readonly ContactBatchRow[], mode: ContactImportMode, ids: IdGenerator, now: Date): Promise<ContactBatchOutcome[]>;
}
export const ContactRepository = Symbol.for('carteiro.ContactRepository');

/** How `q` of a contact search is read: `phone` (only digits, spaces and `+()-.`), `email` (has `@`) or `text`. */
export function contactQueryKind(q: string): 'phone' | 'email' | 'text' {
  if (/^[\d\s()+.\-]+$/.test(q) && /\d/.test(q)) return 'phone';
  if (q.includes('@')) return 'email';
  return 'text';
}
