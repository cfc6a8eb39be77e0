import type { ContactAffinity } from '../index.js';
import type { ContactAffinityRepository } from '../index.js';
import { contactMatchKey, type Contact } from '../index.js';
import { MAX_ENSURE_CONTACTS, type ContactEntry, type ContactRepository, type EnsuredContact } from '../index.js';
import { phoneMatchKey } from '../../phone/index.js';
import { ValidationError } from '../../shared/errors.js';
import type { IdGenerator } from '../../shared/id-generator.js';
import type { Tag } from '../../tags/index.js';
import type { TagRepository } from '../../tags/index.js';
import type { InMemoryStore } from '../../testing/in-memory-store.js';
import type { ContactRepositories } from '../contact-repositories.js';
import type { TagRepositories } from '../../tags/index.js';

export class InMemoryContactRepository implements ContactRepository {
  constructor(private readonly store: InMemoryStore) {}
  private get rows() {
    return this.store.table('contacts', () => new Map<string, Contact>());
  }
  private byKey(companyId: string, key: string): Contact | undefined {
    return [...this.rows.values()].find((c) => c.companyId === companyId && contactMatchKey(c) === key);
  }
  async insert(contact: Contact) {
    if (this.rows.has(contact.id) || this.byKey(contact.companyId, contactMatchKey(contact))) {
      throw new Error(`duplicate contact ${contact.phone}`);
    }
    this.rows.set(contact.id, structuredClone(contact));
  }
  async findById(companyId: string, id: string) {
    const found = this.rows.get(id);
    return found && found.companyId === companyId ? structuredClone(found) : null;
  }
  async findByPhone(companyId: string, phone: string) {
    const found = this.byKey(companyId, phoneMatchKey(phone));
    return found ? structuredClone(found) : null;
  }
  async findManyByIds(companyId: string, ids: readonly string[]) {
    const wanted = new Set(ids);
    return [...this.rows.values()].filter((c) => c.companyId === companyId && wanted.has(c.id)).map((c) => structuredClone(c));
  }
  async ensureMany(companyId: string, entries: readonly ContactEntry[], ids: IdGenerator, now: Date): Promise<EnsuredContact[]> {
    if (entries.length > MAX_ENSURE_CONTACTS) throw new ValidationError(`At most ${MAX_ENSURE_CONTACTS} contacts at once`);
    const index = new Map<string, Contact>();
    for (const c of this.rows.values()) if (c.companyId === companyId) index.set(contactMatchKey(c), c);
    const createdKeys = new Set<string>();
    return entries.map((entry) => {
      const key = phoneMatchKey(entry.phone);
      let contact = index.get(key);
      if (!contact) {
        const name = entry.name?.trim() ? entry.name.trim() : null;
        contact = { id: ids.newId(), companyId, phone: entry.phone, name, createdAt: now, updatedAt: now };
        this.rows.set(contact.id, contact);
        index.set(key, contact);
        createdKeys.add(key);
      }
      return { ...structuredClone(contact), created: createdKeys.has(key) };
    });
  }
}

export class InMemoryContactAffinityRepository implements ContactAffinityRepository {
  constructor(private readonly store: InMemoryStore) {}
  private get rows() {
    return this.store.table('contactAffinities', () => [] as ContactAffinity[]);
  }
  async add(affinity: ContactAffinity) {
    if (this.rows.some((a) => a.contactId === affinity.contactId && a.setorId === affinity.setorId)) return false;
    this.rows.push(structuredClone(affinity));
    return true;
  }
  async listByContact(companyId: string, contactId: string) {
    return this.rows
      .filter((a) => a.companyId === companyId && a.contactId === contactId)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
      .map((a) => structuredClone(a));
  }
}

export class InMemoryTagRepository implements TagRepository {
  constructor(private readonly store: InMemoryStore) {}
  private get tags() {
    return this.store.table('tags', () => new Map<string, Tag>());
  }
  private get links() {
    return this.store.table('contactTags', () => [] as { contactId: string; tagId: string; createdAt: Date }[]);
  }
  async insert(tag: Tag) {
    this.tags.set(tag.id, structuredClone(tag));
  }
  async findManyByIds(companyId: string, ids: readonly string[]) {
    const wanted = new Set(ids);
    return [...this.tags.values()].filter((t) => t.companyId === companyId && wanted.has(t.id)).map((t) => structuredClone(t));
  }
  async tagContact(contactId: string, tagIds: readonly string[], now: Date) {
    const added: string[] = [];
    for (const tagId of new Set(tagIds)) {
      if (this.links.some((l) => l.contactId === contactId && l.tagId === tagId)) continue;
      this.links.push({ contactId, tagId, createdAt: now });
      added.push(tagId);
    }
    return added;
  }
  async tagIdsOfContact(contactId: string) {
    return this.links.filter((l) => l.contactId === contactId).map((l) => l.tagId);
  }
}

/** The contact and tag areas' fakes over one store. */
export function inMemoryContactRepositories(store: InMemoryStore): ContactRepositories & TagRepositories {
  return {
    contacts: new InMemoryContactRepository(store),
    contactAffinities: new InMemoryContactAffinityRepository(store),
    tags: new InMemoryTagRepository(store),
  };
}
