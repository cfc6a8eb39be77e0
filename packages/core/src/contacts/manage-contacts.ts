import { apiActor } from '../shared/domain-event.js';
import type { Clock } from '../shared/clock.js';
import { DomainError, NotFoundError, ValidationError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Page, PageRequest } from '../shared/pagination.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import type { Tag, TagRepositories } from '../tags/index.js';
import type { Contact } from './contact.js';
import type { ContactAffinity } from './contact-affinity.js';
import { mergeContactFields, patchContact, type ContactWrite } from './contact-fill.js';
import { validateCustomFields, type ContactFieldDefinition } from './contact-field.js';
import type { ContactRepositories } from './contact-repositories.js';
import type { ContactListItem, ContactSearch, ContactStats } from './contact-repository.js';

/** Longest assistant pause (conversations.md §4). */
export const MAX_ASSISTANT_PAUSE_MS = 30 * 86_400_000;

/** The 360 view of one contact (GET /v1/contacts/:id). */
export interface ContactDetail {
  contact: ContactListItem;
  tags: Tag[];
  affinities: ContactAffinity[];
  stats: ContactStats;
}

/** Reads of contacts and custom-field definitions. */
export class ReadContacts {
  constructor(
    private readonly repos: Repositories<ContactRepositories & TagRepositories>,
    private readonly clock: Clock,
  ) {}

  list(companyId: string, search: ContactSearch, page: PageRequest): Promise<Page<ContactListItem>> {
    return this.repos.contacts.search(companyId, search, page, this.clock.now());
  }

  async detail(companyId: string, id: string): Promise<ContactDetail> {
    const contact = await this.repos.contacts.findById(companyId, id);
    if (!contact) throw new NotFoundError('Contact');
    const [tagIds, affinities, stats] = await Promise.all([
      this.repos.tags.tagIdsOfContact(contact.id),
      this.repos.contactAffinities.listByContact(companyId, contact.id),
      this.repos.contacts.stats(companyId, contact.id),
    ]);
    const tags = await this.repos.tags.findManyByIds(companyId, tagIds);
    return { contact: { ...contact, tagIds, lastInboundAt: stats.lastInboundAt }, tags, affinities, stats };
  }

  fields(companyId: string): Promise<ContactFieldDefinition[]> {
    return this.repos.contactFields.list(companyId);
  }
}

/**
 * The contact as `GET /v1/contacts` lists it — with its tags and the time of its last inbound message, which the
 * contact row does not hold — read in the caller's transaction (so it sees that transaction's writes).
 */
export async function contactAsListed(repos: Repositories<ContactRepositories>, contact: Contact, now: Date): Promise<ContactListItem> {
  const page = await repos.contacts.search(contact.companyId, { phone: contact.phone }, { page: 1, limit: 1 }, now);
  const listed = page.items.find((c) => c.id === contact.id);
  return { ...contact, tagIds: listed?.tagIds ?? [], lastInboundAt: listed?.lastInboundAt ?? null };
}

/** PATCH /v1/contacts/:id, PATCH /v1/contacts/:id/assistant and POST /v1/contacts/:id/merge: each answers the contact as listed. */
export class ManageContacts {
  constructor(
    private readonly uow: UnitOfWork<ContactRepositories & TagRepositories>,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  /** Name, email and custom fields (checked against the definitions; `null` removes a value). */
  async update(companyId: string, id: string, patch: ContactWrite): Promise<{ contact: ContactListItem; changed: boolean }> {
    if (patch.name != null && patch.name.length > 100) throw new ValidationError('name must be at most 100 characters', { field: 'name' });
    if (patch.email != null && patch.email.length > 254) throw new ValidationError('email must be at most 254 characters', { field: 'email' });
    return this.uow.transaction(async (repos) => {
      const contact = await repos.contacts.findByIdForUpdate(companyId, id);
      if (!contact) throw new NotFoundError('Contact');
      const customFields = patch.customFields ? validateCustomFields(await repos.contactFields.listForUse(companyId, Object.keys(patch.customFields)), patch.customFields) : undefined;
      const now = this.clock.now();
      const result = patchContact(contact, { ...patch, customFields }, now);
      if (result.changed) await repos.contacts.update(result.contact);
      return { contact: await contactAsListed(repos, result.contact, now), changed: result.changed };
    });
  }

  /** Switches the assistant on or off, or pauses it until `pausedUntil` (at most 30 days ahead). */
  async setAssistant(companyId: string, id: string, input: { iaAtiva?: boolean; pausedUntil?: Date | null }): Promise<{ contact: ContactListItem; changed: boolean }> {
    const now = this.clock.now();
    if (input.pausedUntil) {
      const ahead = input.pausedUntil.getTime() - now.getTime();
      if (ahead <= 0 || ahead > MAX_ASSISTANT_PAUSE_MS) {
        throw new ValidationError('paused_until must be in the future and at most 30 days ahead', { field: 'paused_until' });
      }
    }
    if (input.iaAtiva === undefined && input.pausedUntil === undefined) throw new ValidationError('ia_ativa or paused_until is required', { field: 'ia_ativa' });
    return this.uow.transaction(async (repos) => {
      const contact = await repos.contacts.findByIdForUpdate(companyId, id);
      if (!contact) throw new NotFoundError('Contact');
      const next: Contact = { ...contact };
      if (input.pausedUntil) {
        // A pause keeps the switch on: the assistant comes back by itself when the pause ends.
        next.iaAtiva = true;
        next.iaPausedUntil = input.pausedUntil;
      } else {
        if (input.iaAtiva !== undefined) next.iaAtiva = input.iaAtiva;
        if (input.pausedUntil === null || input.iaAtiva === true) next.iaPausedUntil = null;
      }
      const changed = next.iaAtiva !== contact.iaAtiva || next.iaPausedUntil?.getTime() !== contact.iaPausedUntil?.getTime();
      if (changed) {
        next.updatedAt = now;
        await repos.contacts.update(next);
      }
      return { contact: await contactAsListed(repos, changed ? next : contact, now), changed };
    });
  }

  /**
   * Merges `mergedId` into `survivorId` in one transaction: conversations, messages, tickets, tags,
   * affinities and campaign messages move, the survivor's empty fields are filled, the other
   * contact is deleted; `contact.merged` with the tickets moved. Refused (409 CONFLICT) when both
   * have an active ticket on one box: the one-active-ticket rule would break.
   */
  async merge(companyId: string, survivorId: string, mergedId: string): Promise<ContactListItem> {
    if (survivorId === mergedId) throw new ValidationError('merge_contact_id must be another contact', { field: 'merge_contact_id' });
    return this.uow.transaction(async (repos) => {
      // Locked in id order, so that two merges of the same pair cannot deadlock.
      const [first, second] = [survivorId, mergedId].sort();
      const a = await repos.contacts.findByIdForUpdate(companyId, first!);
      const b = await repos.contacts.findByIdForUpdate(companyId, second!);
      const survivor = a?.id === survivorId ? a : b;
      const merged = a?.id === mergedId ? a : b;
      if (!survivor || !merged || survivor.id === merged.id) throw new NotFoundError('Contact');
      const clash = await repos.contacts.activeTicketClash(survivor.id, merged.id);
      if (clash) throw new DomainError('CONFLICT', 'Both contacts have an active ticket on one box: close one of them first', { setor_id: clash });
      const now = this.clock.now();
      const { movedTickets } = await repos.contacts.moveAndDelete(companyId, survivor.id, merged.id);
      const filled = mergeContactFields(survivor, merged, now);
      await repos.contacts.update(filled);
      await repos.events.record([
        {
          id: this.ids.newId(),
          event: 'contact.merged',
          companyId,
          setorId: null,
          occurredAt: now,
          data: { contactId: survivor.id, mergedContactId: merged.id, phone: survivor.phone, mergedPhone: merged.phone, movedTickets },
          actor: apiActor,
        },
      ]);
      return contactAsListed(repos, filled, now);
    });
  }
}
