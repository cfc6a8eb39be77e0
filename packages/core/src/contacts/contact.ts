import { phoneMatchKey } from '../phone/index.js';

/** A person the company talks to, identified by phone within the company. */
export interface Contact {
  id: string;
  companyId: string;
  /** E.164. */
  phone: string;
  name: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A new contact; `phone` must already be E.164 (see `normalizePhone`). */
export function createContact(id: string, companyId: string, phone: string, name: string | null, now: Date): Contact {
  return { id, companyId, phone, name: name?.trim() ? name.trim() : null, createdAt: now, updatedAt: now };
}

/** The key contacts are unique by within a company (ninth-digit aware). */
export function contactMatchKey(contact: Pick<Contact, 'phone'>): string {
  return phoneMatchKey(contact.phone);
}
