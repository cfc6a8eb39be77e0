import type { Page, PageRequest } from '../shared/pagination.js';
import type { Tag } from './tag.js';

/** Stores tags and their links to contacts. */
export interface TagRepository {
  insert(tag: Tag): Promise<void>;
  /** Inserts unless a tag of the company has the name ignoring case; answers that tag then (null when inserted). */
  insertUnique(tag: Tag): Promise<Tag | null>;
  /** Writes name, description, colour and `updatedAt`; answers the tag holding the name ignoring case when it is another one (nothing written then). */
  update(tag: Tag): Promise<Tag | null>;
  findById(companyId: string, id: string): Promise<Tag | null>;
  /** The company's tags among `ids`; unknown or other-company ids are left out. */
  findManyByIds(companyId: string, ids: readonly string[]): Promise<Tag[]>;
  /** A page of the company's tags by name, `q` matching part of the name ignoring case. */
  list(companyId: string, q: string | undefined, page: PageRequest): Promise<Page<Tag>>;
  count(companyId: string): Promise<number>;
  /** Deletes the tag with its contact links and rules; answers how many of each went. */
  delete(companyId: string, id: string): Promise<{ contacts: number; rules: number }>;
  /** Links the tags to the contact (idempotent); answers the ids that were not linked before. */
  tagContact(contactId: string, tagIds: readonly string[], now: Date): Promise<string[]>;
  /** {@link tagContact} for several contacts in one write, answering nothing (an inbound group's links to contacts it created). */
  linkContactTags(links: readonly { contactId: string; tagId: string }[], now: Date): Promise<void>;
  /** Ids of the contact's tags. */
  tagIdsOfContact(contactId: string): Promise<string[]>;
}
export const TagRepository = Symbol.for('carteiro.TagRepository');
