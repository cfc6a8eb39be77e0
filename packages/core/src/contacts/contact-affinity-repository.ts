import type { ContactAffinity } from './contact-affinity.js';

/** Stores contact-setor affinities (one per contact and setor). */
export interface ContactAffinityRepository {
  /** Adds the affinity unless the contact already has one with that setor; true when added. */
  add(affinity: ContactAffinity): Promise<boolean>;
  /** The contact's affinities, oldest first. */
  listByContact(companyId: string, contactId: string): Promise<ContactAffinity[]>;
}
export const ContactAffinityRepository = Symbol.for('carteiro.ContactAffinityRepository');
