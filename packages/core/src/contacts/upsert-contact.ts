import { apiActor, type DomainEvent } from '../shared/domain-event.js';
import type { Clock } from '../shared/clock.js';
import { NotFoundError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import { normalizePhone } from '../phone/index.js';
import type { TagRepositories } from '../tags/index.js';
import { createContact, type Contact } from './contact.js';
import { applyContactWrite, fieldsOf } from './contact-fill.js';
import { validateCustomFields } from './contact-field.js';
import type { ContactRepositories } from './contact-repositories.js';
import type { ContactListItem } from './contact-repository.js';
import { contactAsListed } from './manage-contacts.js';

/** POST /v1/contacts. */
export interface UpsertContactInput {
  phone: string;
  name?: string | null;
  email?: string | null;
  customFields?: Record<string, unknown>;
  tagIds?: string[];
}

export interface UpsertContactResult {
  /** With its tags and the time of its last inbound message, as `GET /v1/contacts` lists it. */
  contact: ContactListItem;
  created: boolean;
  /** Fields written (`name`, `email`, `custom_fields.<key>`). */
  filled: string[];
  /** Fields given but kept as they were (they had a value). */
  kept: string[];
  /** Tags newly linked. */
  tagsAdded: string[];
  tagIds: string[];
}

/**
 * Creates a contact by phone, or fills the empty fields of the one with its match key (either
 * ninth-digit form): never overwrites, tags only added. Concurrent calls for one new number
 * make one contact (`insertOrLock`). Emits `contact.created` (source api) and `contact.tagged`.
 */
export class UpsertContact {
  constructor(
    private readonly uow: UnitOfWork<ContactRepositories & TagRepositories>,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async execute(company: { id: string; defaultCountry?: string }, input: UpsertContactInput): Promise<UpsertContactResult> {
    normalizePhone(input.phone, 'phone', company.defaultCountry);
    return this.uow.transaction((repos) => this.run(repos, company, input));
  }

  /** The upsert inside the caller's transaction (an Idempotency-Key's, for one). */
  async run(repos: Repositories<ContactRepositories & TagRepositories>, company: { id: string; defaultCountry?: string }, input: UpsertContactInput): Promise<UpsertContactResult> {
    const phone = normalizePhone(input.phone, 'phone', company.defaultCountry);
    const tagIds = [...new Set(input.tagIds ?? [])];
    const now = this.clock.now();
    const customFields = input.customFields
      ? Object.fromEntries(
          Object.entries(validateCustomFields(await repos.contactFields.listForUse(company.id, Object.keys(input.customFields)), input.customFields)).filter(([, v]) => v !== null),
        )
      : {};
    if (tagIds.length > 0) {
      const found = new Set((await repos.tags.findManyByIds(company.id, tagIds)).map((t) => t.id));
      const unknown = tagIds.filter((id) => !found.has(id));
      if (unknown.length > 0) throw new NotFoundError('Tag', { tag_ids: unknown });
    }
    const candidate = createContact(this.ids.newId(), company.id, phone, input.name ?? null, now, { email: input.email ?? null, customFields });
    const { contact: stored, created } = await repos.contacts.insertOrLock(candidate);
    let contact = stored;
    let filled: string[];
    let kept: string[] = [];
    if (created) {
      filled = fieldsOf(stored);
    } else {
      const write = applyContactWrite(stored, { name: input.name, email: input.email, customFields }, 'fill', now);
      ({ filled, kept } = write);
      if (write.changed) {
        await repos.contacts.update(write.contact);
        contact = write.contact;
      }
    }
    const tagsAdded = tagIds.length > 0 ? await repos.tags.tagContact(contact.id, tagIds, now) : [];
    const event = (name: DomainEvent['event'], data: Record<string, unknown>): DomainEvent => ({
      id: this.ids.newId(),
      event: name,
      companyId: company.id,
      setorId: null,
      occurredAt: now,
      data,
      actor: apiActor,
    });
    const events: DomainEvent[] = [];
    if (created) events.push(event('contact.created', { contactId: contact.id, phone: contact.phone, name: contact.name, source: 'api' }));
    if (tagsAdded.length > 0) events.push(event('contact.tagged', { contactId: contact.id, tagIds: tagsAdded, source: 'api', ruleId: null }));
    if (events.length > 0) await repos.events.record(events);
    if (created) {
      const tagIds = await repos.tags.tagIdsOfContact(contact.id);
      return { contact: { ...contact, tagIds, lastInboundAt: null }, created, filled, kept, tagsAdded, tagIds };
    }
    // An existing contact is answered as the list shows it (its tags and last inbound message).
    const listed = await contactAsListed(repos, contact, now);
    return { contact: listed, created, filled, kept, tagsAdded, tagIds: listed.tagIds };
  }
}
