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
