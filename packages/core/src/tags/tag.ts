/** A label of the company's contacts (and, with the tickets area, of tickets). */
export interface Tag {
  id: string;
  companyId: string;
  /** 1-50 characters, unique in the company ignoring case. */
  name: string;
  /** Up to 200 characters. */
  description?: string | null;
  /** `#RRGGBB`. */
  color?: string | null;
  createdAt: Date;
  updatedAt?: Date;
}

/** Most tags a company may have (conversations.md §11). */
export const MAX_TAGS = 1000;
export const TAG_COLOR = /^#[0-9A-Fa-f]{6}$/;
