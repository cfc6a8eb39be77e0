/** How an affinity came to be. */
export type AffinitySource = 'first_contact' | 'inbound' | 'campaign';

/**
 * The link between a contact and a setor (sending number): later first contacts without a
 * `setor_id` go through the setor the contact already knows.
 */
export interface ContactAffinity {
  companyId: string;
  contactId: string;
  setorId: string;
  source: AffinitySource;
  createdAt: Date;
}
