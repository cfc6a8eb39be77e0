import { applyContactWrite, createContact, type ContactRepositories } from '../contacts/index.js';
import { normalizePhone } from '../phone/index.js';
import type { Clock } from '../shared/clock.js';
import { apiActor, eventMaker, type DomainEvent } from '../shared/domain-event.js';
import { NotFoundError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import type { TagRepositories } from '../tags/index.js';

/** One lead to save (`POST /v1/leads/save-to-crm` `items[]`). */
export interface LeadToSave {
  cnpj: string;
  name?: string | null;
  phone?: string | null;
  email?: string | null;
}

export interface SavedLead {
  cnpj: string;
  phone: string | null;
  status: 'created' | 'updated' | 'skipped';
  contactId: string | null;
  /** Fields written on an existing contact (fill-only). */
  filled: string[];
  /** Why a lead was skipped: `no_phone`, `invalid_phone`, `duplicate`. */
  reason: string | null;
}

export interface SaveLeadsResult {
  created: number;
  updated: number;
  skipped: number;
  results: SavedLead[];
}

/**
 * Saves leads as contacts in one transaction: by phone (either ninth-digit form matches an existing
 * contact), fill-only (a name or e-mail already there is kept), the tags added to each saved contact.
 * A lead without a valid phone is skipped; a second lead with the same phone in the call is a
 * duplicate. Records `contact.created`/`contact.tagged` for each contact and one `lead.saved_to_crm`.
 */
export class SaveLeadsToCrm {
  constructor(
    private readonly uow: UnitOfWork<ContactRepositories & TagRepositories>,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async execute(company: { id: string; defaultCountry?: string }, items: readonly LeadToSave[], tagIds: readonly string[], jobId: string | null): Promise<SaveLeadsResult> {
    const tags = [...new Set(tagIds)];
    return this.uow.transaction(async (repos) => {
      const now = this.clock.now();
      if (tags.length > 0) {
        const found = new Set((await repos.tags.findManyByIds(company.id, tags)).map((t) => t.id));
        const unknown = tags.filter((id) => !found.has(id));
        if (unknown.length > 0) throw new NotFoundError('Tag', { tag_ids: unknown });
      }
      const events: DomainEvent[] = [];
      const event = eventMaker(this.ids, company.id, now, apiActor);
      const seen = new Set<string>();
      const results: SavedLead[] = [];
      const toSave: { index: number; item: LeadToSave; phone: string }[] = [];
      for (const item of items) {
        const skip = (reason: string, phone: string | null = null): SavedLead => ({ cnpj: item.cnpj, phone, status: 'skipped', contactId: null, filled: [], reason });
        if (!item.phone) {
          results.push(skip('no_phone'));
          continue;
        }
        let phone: string;
        try {
          phone = normalizePhone(item.phone, 'phone', company.defaultCountry);
        } catch {
          results.push(skip('invalid_phone'));
          continue;
        }
        if (seen.has(phone)) {
          results.push(skip('duplicate', phone));
          continue;
        }
        seen.add(phone);
        toSave.push({ index: results.length, item, phone });
        results.push(skip('pending', phone)); // replaced by the upsert's result below
      }
      // Contacts are upserted (and their rows locked) in phone order, whatever the leads' order: two batches sharing
      // phones then lock them in the same order and wait for each other instead of deadlocking.
      toSave.sort((a, b) => (a.phone < b.phone ? -1 : a.phone > b.phone ? 1 : 0));
      for (const { index, item, phone } of toSave) {
        const candidate = createContact(this.ids.newId(), company.id, phone, item.name ?? null, now, { email: item.email ?? null });
        const { contact: stored, created } = await repos.contacts.insertOrLock(candidate);
        let filled: string[] = [];
        if (!created) {
          const write = applyContactWrite(stored, { name: item.name, email: item.email }, 'fill', now);
          filled = write.filled;
          if (write.changed) await repos.contacts.update(write.contact);
        } else {
          events.push(event('contact.created', { contactId: stored.id, phone: stored.phone, name: stored.name, source: 'api' }));
        }
        const added = tags.length > 0 ? await repos.tags.tagContact(stored.id, tags, now) : [];
        if (added.length > 0) events.push(event('contact.tagged', { contactId: stored.id, tagIds: added, source: 'api', ruleId: null }));
        results[index] = { cnpj: item.cnpj, phone: stored.phone, status: created ? 'created' : 'updated', contactId: stored.id, filled, reason: null };
      }
      const count = (status: SavedLead['status']) => results.filter((r) => r.status === status).length;
      const summary = { created: count('created'), updated: count('updated'), skipped: count('skipped') };
      events.push(event('lead.saved_to_crm', { jobId, ...summary, contactIds: results.filter((r) => r.contactId).map((r) => r.contactId) }));
      await repos.events.record(events);
      return { ...summary, results };
    });
  }
}
