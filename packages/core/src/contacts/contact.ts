import { phoneMatchKey } from '../phone/index.js';

/** Values of a contact's custom fields by key (see `ContactFieldDefinition` for their types). */
export type CustomFieldValues = Record<string, unknown>;

/** A person the company talks to, identified by phone within the company. */
export interface Contact {
  id: string;
  companyId: string;
  /** E.164. */
  phone: string;
  name: string | null;
  email: string | null;
  customFields: CustomFieldValues;
  /** The contact's assistant (AI) switch; see {@link assistantActive} for the value in effect. */
  iaAtiva: boolean;
  /** A pause of the assistant: until then it is off whatever `iaAtiva` says. */
  iaPausedUntil: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A new contact; `phone` must already be E.164 (see `normalizePhone`). A new contact's assistant is on. */
export function createContact(
  id: string,
  companyId: string,
  phone: string,
  name: string | null,
  now: Date,
  extra: { email?: string | null; customFields?: CustomFieldValues } = {},
): Contact {
  return {
    id,
    companyId,
    phone,
    name: name?.trim() ? name.trim() : null,
    email: extra.email?.trim() ? extra.email.trim() : null,
    customFields: extra.customFields ?? {},
    iaAtiva: true,
    iaPausedUntil: null,
    createdAt: now,
    updatedAt: now,
  };
}

/** The key contacts are unique by within a company (ninth-digit aware). */
export function contactMatchKey(contact: Pick<Contact, 'phone'>): string {
  return phoneMatchKey(contact.phone);
}

/** Whether the contact's assistant is on at `now`: switched on and not paused. */
export function assistantActive(contact: Pick<Contact, 'iaAtiva' | 'iaPausedUntil'>, now: Date): boolean {
  return contact.iaAtiva && !(contact.iaPausedUntil && contact.iaPausedUntil.getTime() > now.getTime());
}


