/**
 * A label of the company's contacts. Minimal for now (first-contact tagging); the tags
 * feature adds description, colour and rules.
 */
export interface Tag {
  id: string;
  companyId: string;
  name: string;
  createdAt: Date;
}
