import {
  applyContactWrite,
  assistantActive,
  contactMatchKey,
  contactQueryKind,
  MAX_ENSURE_CONTACTS,
  type Contact,
  type ContactAffinity,
  type ContactAffinityRepository,
  type ContactBatchOutcome,
  type ContactBatchRow,
  type ContactEntry,
  type ContactFieldDefinition,
  type ContactFieldRepository,
  type ContactImport,
  type ContactImportMode,
  type ContactImportRepository,
  type ContactListItem,
  type ContactRepository,
  type ContactSearch,
  type ContactStats,
  type EnsuredContact,
  type PreparedImportRow,
} from '../index.js';
import { createContact } from '../index.js';
import { phoneMatchKey } from '../../phone/index.js';
import { ValidationError } from '../../shared/errors.js';
import type { IdGenerator } from '../../shared/id-generator.js';
import type { PageRequest } from '../../shared/pagination.js';
import { paginate, type InMemoryStore } from '../../shared/testing/in-memory-store.js';
import type { ContactRepositories } from '../contact-repositories.js';

/** The messages area's tables, as far as a search, the stats and a merge read and move their rows (the messages fakes own them). */
const conversationRows = (store: InMemoryStore) =>
  store.table('conversations', () => new Map<string, { id: string; contactId: string; setorId: string; lastInboundAt: Date | null; lastOutboundAt: Date | null }>());
const messageRows = (store: InMemoryStore) =>
  store.table('messages', () => new Map<string, { contactId: string; conversationId: string; direction?: string; type?: string }>());

/** The later of two instants, as SQL's greatest: null only when both are. */
const later = (a: Date | null, b: Date | null) => (a && b ? (a > b ? a : b) : (a ?? b));

/** The tickets area's table, as far as a merge moves its rows (the tickets fakes own it). */
const tickets = (store: InMemoryStore) => store.table('tickets', () => new Map<string, { contactId: string; conversationId: string; setorId: string; status: string }>());

/** The tables of other areas whose rows name a contact as their client (their fakes own them): a merge moves them. */
const CLIENT_TABLES = ['crmOpportunities', 'contracts', 'appointments', 'scheduledMessages'] as const;

type Link = { contactId: string; tagId: string; createdAt: Date };

export class InMemoryContactRepository implements ContactRepository {
  constructor(private readonly store: InMemoryStore) {}
  private get rows() {
    return this.store.table('contacts', () => new Map<string, Contact>());
  }
  private get links() {
    return this.store.table('contactTags', () => [] as Link[]);
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
  findByIdForUpdate(companyId: string, id: string) {
    return this.findById(companyId, id);
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
        contact = createContact(ids.newId(), companyId, entry.phone, entry.name, now);
        this.rows.set(contact.id, contact);
        index.set(key, contact);
        createdKeys.add(key);
      }
      return { ...structuredClone(contact), created: createdKeys.has(key) };
    });
  }
  async insertOrLock(contact: Contact) {
    const existing = this.byKey(contact.companyId, contactMatchKey(contact));
    if (existing) return { contact: structuredClone(existing), created: false };
    this.rows.set(contact.id, structuredClone(contact));
    return { contact: structuredClone(contact), created: true };
  }
  insertOrLockInbound(contact: Contact) {
    return this.insertOrLock(contact);
  }
  async update(contact: Contact) {
    if (this.rows.has(contact.id)) this.rows.set(contact.id, structuredClone(contact));
  }
  private lastInbound(contactId: string): Date | null {
    const conversations = conversationRows(this.store);
    let last: Date | null = null;
    for (const c of conversations.values()) {
      if (c.contactId === contactId && c.lastInboundAt && (!last || c.lastInboundAt > last)) last = c.lastInboundAt;
    }
    return last;
  }
  async search(companyId: string, search: ContactSearch, page: PageRequest, now: Date) {
    const q = search.q?.trim().toLowerCase();
    const qDigits = search.q?.replace(/\D/g, '') ?? '';
    const all = [...this.rows.values()]
      .filter((c) => c.companyId === companyId)
      .filter((c) => !search.phone || contactMatchKey(c) === phoneMatchKey(search.phone))
      .filter((c) => {
        if (!q) return true;
        const kind = contactQueryKind(q);
        if (kind === 'phone') return c.phone.replace(/\D/g, '').endsWith(qDigits) || contactMatchKey(c).replace(/\D/g, '').endsWith(qDigits);
        if (kind === 'email') return (c.email ?? '').toLowerCase().startsWith(q);
        return (c.name ?? '').toLowerCase().includes(q) || (c.email ?? '').toLowerCase().startsWith(q);
      })
      .filter((c) => search.iaAtiva === undefined || assistantActive(c, now) === search.iaAtiva)
      .filter((c) => !search.updatedSince || c.updatedAt >= search.updatedSince)
      .filter((c) => (search.tagIds ?? []).every((t) => this.links.some((l) => l.contactId === c.id && l.tagId === t)))
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
    const result = paginate(all, page);
    return {
      ...result,
      items: result.items.map(
        (c): ContactListItem => ({
          ...structuredClone(c),
          tagIds: this.links.filter((l) => l.contactId === c.id).map((l) => l.tagId),
          lastInboundAt: this.lastInbound(c.id),
        }),
      ),
    };
  }
  async stats(_companyId: string, contactId: string): Promise<ContactStats> {
    const conversations = [...conversationRows(this.store).values()].filter((c) => c.contactId === contactId);
    const messages = [...messageRows(this.store).values()].filter(
      (m) => m.contactId === contactId && (m.direction ?? 'outbound') === 'outbound' && (m.type ?? 'message') === 'message',
    );
    const max = (dates: (Date | null)[]) => dates.reduce<Date | null>((acc, d) => (d && (!acc || d > acc) ? d : acc), null);
    return {
      conversations: conversations.length,
      messagesSent: messages.length,
      lastInboundAt: max(conversations.map((c) => c.lastInboundAt)),
      lastOutboundAt: max(conversations.map((c) => c.lastOutboundAt)),
    };
  }
  async activeTicketClash(survivorId: string, mergedId: string) {
    const active = [...tickets(this.store).values()].filter((t) => t.status !== 'closed');
    const clash = active.find((a) => a.contactId === survivorId && active.some((b) => b.contactId === mergedId && b.setorId === a.setorId));
    return clash?.setorId ?? null;
  }
  async moveAndDelete(_companyId: string, survivorId: string, mergedId: string) {
    const conversations = conversationRows(this.store);
    const messages = messageRows(this.store);
    for (const c of [...conversations.values()].filter((c) => c.contactId === mergedId)) {
      const twin = [...conversations.values()].find((o) => o.contactId === survivorId && o.setorId === c.setorId);
      if (twin) {
        for (const m of messages.values()) if (m.conversationId === c.id) m.conversationId = twin.id;
        for (const t of tickets(this.store).values()) if (t.conversationId === c.id) t.conversationId = twin.id;
        twin.lastInboundAt = later(twin.lastInboundAt, c.lastInboundAt);
        twin.lastOutboundAt = later(twin.lastOutboundAt, c.lastOutboundAt);
        conversations.delete(c.id);
      } else c.contactId = survivorId;
    }
    let movedTickets = 0;
    for (const t of tickets(this.store).values()) {
      if (t.contactId === mergedId) {
        t.contactId = survivorId;
        movedTickets += 1;
      }
    }
    for (const m of messages.values()) if (m.contactId === mergedId) m.contactId = survivorId;
    for (const name of CLIENT_TABLES) {
      const rows = this.store.table(name, () => new Map<string, { clientId: string }>());
      for (const [id, row] of rows) if (row.clientId === mergedId) rows.set(id, { ...row, clientId: survivorId });
    }
    const links = this.links;
    for (const l of links.filter((l) => l.contactId === mergedId)) {
      if (!links.some((o) => o.contactId === survivorId && o.tagId === l.tagId)) links.push({ ...l, contactId: survivorId });
    }
    const affinities = this.store.table('contactAffinities', () => [] as ContactAffinity[]);
    for (const a of affinities.filter((a) => a.contactId === mergedId)) {
      if (!affinities.some((o) => o.contactId === survivorId && o.setorId === a.setorId)) affinities.push({ ...a, contactId: survivorId });
    }
    this.store.extra.set('contactTags', links.filter((l) => l.contactId !== mergedId));
    this.store.extra.set('contactAffinities', affinities.filter((a) => a.contactId !== mergedId));
    this.rows.delete(mergedId);
    return { movedTickets };
  }
  async removeCustomField(companyId: string, key: string, now: Date) {
    let count = 0;
    for (const c of this.rows.values()) {
      if (c.companyId === companyId && key in c.customFields) {
        delete c.customFields[key];
        c.updatedAt = now;
        count += 1;
      }
    }
    return count;
  }
  async writeBatch(companyId: string, rows: readonly ContactBatchRow[], mode: ContactImportMode, ids: IdGenerator, now: Date): Promise<ContactBatchOutcome[]> {
    return rows.map((row) => {
      const existing = this.byKey(companyId, phoneMatchKey(row.phone));
      let contactId: string;
      let outcome: ContactBatchOutcome['outcome'];
      if (!existing) {
        const contact = createContact(ids.newId(), companyId, row.phone, row.name, now, { email: row.email, customFields: row.customFields });
        this.rows.set(contact.id, contact);
        contactId = contact.id;
        outcome = 'created';
      } else {
        contactId = existing.id;
        outcome = 'unchanged';
        if (mode !== 'create_only') {
          const write = applyContactWrite(existing, { name: row.name, email: row.email, customFields: row.customFields }, mode, now);
          if (write.changed) {
            this.rows.set(existing.id, write.contact);
            outcome = 'updated';
          }
        }
      }
      const tagsAdded: string[] = [];
      if (outcome === 'created' || mode !== 'create_only') {
        const tags = this.store.table('tags', () => new Map<string, { companyId: string }>());
        for (const tagId of new Set(row.tagIds)) {
          if (tags.get(tagId)?.companyId !== companyId) continue;
          if (this.links.some((l) => l.contactId === contactId && l.tagId === tagId)) continue;
          this.links.push({ contactId, tagId, createdAt: now });
          tagsAdded.push(tagId);
        }
      }
      if (outcome === 'unchanged' && tagsAdded.length > 0) outcome = 'updated';
      return { contactId, outcome, tagsAdded };
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

export class InMemoryContactFieldRepository implements ContactFieldRepository {
  constructor(private readonly store: InMemoryStore) {}
  private get rows() {
    return this.store.table('contactFields', () => new Map<string, ContactFieldDefinition>());
  }
  async insert(definition: ContactFieldDefinition) {
    const existing = [...this.rows.values()].find((d) => d.companyId === definition.companyId && d.key === definition.key);
    if (existing) return structuredClone(existing);
    this.rows.set(definition.id, structuredClone(definition));
    return null;
  }
  async update(definition: ContactFieldDefinition) {
    this.rows.set(definition.id, structuredClone(definition));
  }
  async delete(id: string) {
    this.rows.delete(id);
  }
  async findByIdForUpdate(id: string) {
    const found = this.rows.get(id);
    return found ? structuredClone(found) : null;
  }
  async list(companyId: string) {
    return [...this.rows.values()]
      .filter((d) => d.companyId === companyId)
      .sort((a, b) => (a.key < b.key ? -1 : 1))
      .map((d) => structuredClone(d));
  }
  async listForUse(companyId: string, keys: readonly string[]) {
    return (await this.list(companyId)).filter((d) => keys.includes(d.key));
  }
  async count(companyId: string) {
    return [...this.rows.values()].filter((d) => d.companyId === companyId).length;
  }
}

export class InMemoryContactImportRepository implements ContactImportRepository {
  constructor(private readonly store: InMemoryStore) {}
  private get jobs() {
    return this.store.table('contactImports', () => new Map<string, ContactImport>());
  }
  private get batches() {
    return this.store.table('contactImportBatches', () => new Map<string, PreparedImportRow[]>());
  }
  async insert(job: ContactImport, batches: readonly (readonly PreparedImportRow[])[]) {
    this.jobs.set(job.id, structuredClone(job));
    batches.forEach((rows, i) => this.batches.set(`${job.id}:${i}`, structuredClone([...rows])));
  }
  async findById(companyId: string, id: string) {
    const job = this.jobs.get(id);
    return job && job.companyId === companyId ? structuredClone(job) : null;
  }
  async findByIdForUpdate(id: string) {
    const job = this.jobs.get(id);
    return job ? structuredClone(job) : null;
  }
  async save(job: ContactImport) {
    this.jobs.set(job.id, structuredClone(job));
  }
  async loadBatch(importId: string, batch: number) {
    return structuredClone(this.batches.get(`${importId}:${batch}`) ?? []);
  }
  async lockAndCountActive(companyId: string) {
    return [...this.jobs.values()].filter((j) => j.companyId === companyId && (j.status === 'queued' || j.status === 'running')).length;
  }
  async listStale(now: Date, queuedBefore: Date) {
    return [...this.jobs.values()]
      .filter((j) => (j.status === 'running' && (!j.leaseUntil || j.leaseUntil <= now)) || (j.status === 'queued' && j.createdAt < queuedBefore))
      .map((j) => j.id);
  }
}

/** The contact area's fakes over one store. */
export function inMemoryContactRepositories(store: InMemoryStore): ContactRepositories {
  return {
    contacts: new InMemoryContactRepository(store),
    contactAffinities: new InMemoryContactAffinityRepository(store),
    contactFields: new InMemoryContactFieldRepository(store),
    contactImports: new InMemoryContactImportRepository(store),
  };
}
