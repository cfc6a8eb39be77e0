import type { Tag } from './tag.js';

/** Stores tags and their links to contacts. */
export interface TagRepository {
  insert(tag: Tag): Promise<void>;
  /** The company's tags among `ids`; unknown or other-company ids are left out. */
  findManyByIds(companyId: string, ids: readonly string[]): Promise<Tag[]>;
  /** Links the tags to the contact (idempotent); answers the ids that were not linked before. */
  tagContact(contactId: string, tagIds: readonly string[], now: Date): Promise<string[]>;
  /** Ids of the contact's tags. */
  tagIdsOfContact(contactId: string): Promise<string[]>;
}
export const TagRepository = Symbol.for('carteiro.TagRepository');
