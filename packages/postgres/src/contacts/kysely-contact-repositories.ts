import {
  applyContactWrite,
  contactQueryKind,
  MAX_ENSURE_CONTACTS,
  ValidationError,
  phoneMatchKey,
  type AffinitySource,
  type Contact,
  type ContactAffinity,
  type ContactAffinityRepository,
  type ContactBatchOutcome,
  type ContactBatchRow,
  type ContactEntry,
  type ContactImportMode,
  type ContactListItem,
  type ContactRepository,
  type ContactSearch,
  type ContactStats,
  type EnsuredContact,
  type IdGenerator,
  type Page,
  type PageRequest,
} from '@carteiro/core';
import { isUuid } from '@carteiro/core';
import { sql, type Kysely, type Selectable } from 'kysely';

import type { Database } from '../shared/database.js';
import { findCompanyRecord, findCompanyRecords } from '../shared/records.js';
import { columnsOf, fieldsOf } from '../shared/row-fields.js';
import type { ContactsTable } from './contacts-tables.js';

export function toContact(row: Selectable<ContactsTable>): Contact {
  return {
    ...fieldsOf(row, ['id', 'company_id', 'phone', 'name', 'email', 'ia_ativa', 'ia_paused_until', 'created_at', 'updated_at']),
    customFields: row.custom_fields ?? {},
  };
}

/** A new contact's row, with the key its phone is matched by. */
function toRow(contact: Contact) {
  return {
    ...columnsOf(contact, ['id', 'companyId', 'phone', 'name', 'email', 'iaAtiva', 'iaPausedUntil', 'createdAt', 'updatedAt']),
    phone_key: phoneMatchKey(contact.phone),
    custom_fields: JSON.stringify(contact.customFields),
  };
}

/** `…%` for LIKE with the pattern characters of `text` escaped. */
function likePrefix(text: string): string {
  return `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `%…%` for LIKE with the pattern characters of `text` escaped. */
function likeInfix(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export class KyselyContactRepository implements ContactRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(contact: Contact): Promise<void> {
    await this.db
      .insertInto('contacts')
      .values(toRow(contact))
      .execute();
  }

  async findByIdForUpdate(companyId: string, id: string): Promise<Contact | null> {
    if (!isUuid(id)) return null;
    return findCompanyRecord(this.db, 'contacts', companyId, id, toContact, 'forUpdate');
  }

  async insertOrLock(contact: Contact): Promise<{ contact: Contact; created: boolean }> {
    const inserted = await this.db
      .insertInto('contacts')
      .values(toRow(contact))
      // Waits for a concurrent inserter of the same key, then skips: the row is read (and locked) below.
      .onConflict((oc) => oc.columns(['company_id', 'phone_key']).doNothing())
      .returningAll()
      .executeTakeFirst();
    if (inserted) return { contact: toContact(inserted), created: true };
    const row = await this.db
      .selectFrom('contacts')
      .selectAll()
      .where('company_id', '=', contact.companyId)
      .where('phone_key', '=', phoneMatchKey(contact.phone))
      .forUpdate()
      .executeTakeFirstOrThrow();
    return { contact: toContact(row), created: false };
  }

  async insertOrLockInbound(contact: Contact): Promise<{ contact: Contact; created: boolean }> {
    const key = phoneMatchKey(contact.phone);
    // The insert and the locking read in one statement. Both see the statement's snapshot: after a successful insert the
    // read finds nothing (the new row is the answer); after a conflict with a row committed before the statement, the
    // read locks it. A conflict with a row committed meanwhile finds no row at all: then as insertOrLock (read again).
    const { rows } = await sql<Selectable<ContactsTable> & { inserted: boolean }>`
      WITH ins AS (
        INSERT INTO contacts (id, company_id, phone, phone_key, name, email, custom_fields, ia_ativa, ia_paused_until, created_at, updated_at)
        VALUES (${contact.id}, ${contact.companyId}, ${contact.phone}, ${key}, ${contact.name}, ${contact.email}, ${JSON.stringify(contact.customFields)},
                ${contact.iaAtiva}, ${contact.iaPausedUntil}, ${contact.createdAt}, ${contact.updatedAt})
        ON CONFLICT (company_id, phone_key) DO NOTHING
        RETURNING *
      ), locked AS (
        SELECT * FROM contacts WHERE company_id = ${contact.companyId} AND phone_key = ${key} FOR UPDATE
      )
      SELECT ins.*, true AS inserted FROM ins
      UNION ALL
      SELECT locked.*, false AS inserted FROM locked`.execute(this.db);
    const inserted = rows.find((r) => r.inserted);
    if (inserted) return { contact: toContact(inserted), created: true };
    if (rows.length === 1) return { contact: toContact(rows[0]!), created: false };
    return this.insertOrLock(contact);
  }

  async update(contact: Contact): Promise<void> {
    await this.db
      .updateTable('contacts')
      .set({
        name: contact.name,
        email: contact.email,
        custom_fields: JSON.stringify(contact.customFields),
        ia_ativa: contact.iaAtiva,
        ia_paused_until: contact.iaPausedUntil,
        updated_at: contact.updatedAt,
      })
      .where('id', '=', contact.id)
      .where('company_id', '=', contact.companyId)
      .execute();
  }

  async search(companyId: string, search: ContactSearch, page: PageRequest, now: Date): Promise<Page<ContactListItem>> {
    let query = this.db.selectFrom('contacts as c').where('c.company_id', '=', companyId);
    if (search.phone) query = query.where('c.phone_key', '=', phoneMatchKey(search.phone));
    const q = search.q?.trim().toLowerCase();
    if (q) {
      const kind = contactQueryKind(q);
      if (kind === 'phone') {
        // The end of the number: reversed digits make it a prefix, which the btree indexes of 0007 answer.
        const reversed = `${[...q.replace(/\D/g, '')].reverse().join('')}%`;
        query = query.where((eb) =>
          eb.or([eb(sql`reverse(ltrim(c.phone, '+'))`, 'like', reversed), eb(sql`reverse(ltrim(c.phone_key, '+'))`, 'like', reversed)]),
        );
      } else if (kind === 'email') {
        query = query.where(sql`lower(c.email)`, 'like', likePrefix(q));
      } else {
        query = query.where((eb) => eb.or([eb(sql`lower(c.name)`, 'like', likeInfix(q)), eb(sql`lower(c.email)`, 'like', likePrefix(q))]));
      }
    }
    if (search.iaAtiva !== undefined) {
      const active = sql<boolean>`(c.ia_ativa AND (c.ia_paused_until IS NULL OR c.ia_paused_until <= ${now}))`;
      query = query.where(search.iaAtiva ? active : sql<boolean>`NOT ${active}`);
    }
    if (search.updatedSince) query = query.where('c.updated_at', '>=', search.updatedSince);
    for (const tagId of search.tagIds ?? []) {
      if (!isUuid(tagId)) return { items: [], total: 0, page: page.page, limit: page.limit, totalPages: 0 };
      query = query.where((eb) => eb.exists(eb.selectFrom('contact_tags as ct').select(sql`1`.as('one')).where('ct.contact_id', '=', eb.ref('c.id')).where('ct.tag_id', '=', tagId)));
    }
    const withDetails = query
      .selectAll('c')
      .select((eb) => [
        eb.selectFrom('conversations as v').select((e) => e.fn.max('v.last_inbound_at').as('m')).where('v.contact_id', '=', eb.ref('c.id')).as('last_inbound_at'),
        sql<string[] | null>`(SELECT array_agg(ct.tag_id ORDER BY ct.created_at, ct.tag_id) FROM contact_tags ct WHERE ct.contact_id = c.id)`.as('tag_ids'),
      ]);
    const item = (r: Awaited<ReturnType<typeof withDetails.execute>>[number]): ContactListItem => ({
      ...toContact(r),
      tagIds: r.tag_ids ?? [],
      lastInboundAt: (r.last_inbound_at as Date | null) ?? null,
    });
    if (search.phone) {
      // A phone is a unique key: at most one row, no ordering or window count to plan (the hot lookup).
      const found = await withDetails.execute();
      const items = page.page === 1 ? found.slice(0, page.limit).map(item) : [];
      return { items, total: found.length, page: page.page, limit: page.limit, totalPages: Math.ceil(found.length / page.limit) };
    }
    // One round trip: the page with its total (a window count) and each row's tags and last inbound message.
    const rows = await withDetails
      .select(sql<string>`count(*) OVER ()`.as('total'))
      .orderBy('c.created_at', 'desc')
      .orderBy('c.id', 'desc')
      .limit(page.limit)
      .offset((page.page - 1) * page.limit)
      .execute();
    // A page past the end has no row to carry the total: count it then.
    const total =
      rows.length > 0
        ? Number(rows[0]!.total)
        : page.page === 1
          ? 0
          : Number((await query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
    return {
      items: rows.map(item),
      total,
      page: page.page,
      limit: page.limit,
      totalPages: Math.ceil(total / page.limit),
    };
  }

  async stats(companyId: string, contactId: string): Promise<ContactStats> {
    const conv = await this.db
      .selectFrom('conversations')
      .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.max('last_inbound_at').as('inbound'), eb.fn.max('last_outbound_at').as('outbound')])
      .where('company_id', '=', companyId)
      .where('contact_id', '=', contactId)
      .executeTakeFirstOrThrow();
    // Through the contact's conversations (their timeline index): messages have no index on contact_id.
    const sent = await this.db
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('conversation_id', 'in', (eb) => eb.selectFrom('conversations').select('id').where('company_id', '=', companyId).where('contact_id', '=', contactId))
      .where('company_id', '=', companyId)
      .where('contact_id', '=', contactId)
      // Messages the company sent: inbound messages, notes and activities live in this table too (0015-tickets).
      .where('direction', '=', 'outbound')
      .where('type', '=', 'message')
      .executeTakeFirstOrThrow();
    return {
      conversations: Number(conv.n),
      messagesSent: Number(sent.n),
      lastInboundAt: (conv.inbound as Date | null) ?? null,
      lastOutboundAt: (conv.outbound as Date | null) ?? null,
    };
  }

  async activeTicketClash(survivorId: string, mergedId: string): Promise<string | null> {
    const { rows } = await sql<{ setor_id: string }>`
      SELECT a.setor_id FROM tickets a JOIN tickets b ON b.setor_id = a.setor_id
      WHERE a.contact_id = ${survivorId} AND b.contact_id = ${mergedId} AND a.status <> 'closed' AND b.status <> 'closed'
      LIMIT 1`.execute(this.db);
    return rows[0]?.setor_id ?? null;
  }

  async moveAndDelete(companyId: string, survivorId: string, mergedId: string): Promise<{ movedTickets: number }> {
    // Conversations on a setor both contacts have: the merged one's messages and tickets join the survivor's
    // (before that conversation is deleted: its tickets would go with it).
    await sql`
      UPDATE messages m SET conversation_id = s.id
      FROM conversations d JOIN conversations s ON s.setor_id = d.setor_id AND s.contact_id = ${survivorId}
      WHERE d.contact_id = ${mergedId} AND m.conversation_id = d.id`.execute(this.db);
    await sql`
      UPDATE tickets t SET conversation_id = s.id
      FROM conversations d JOIN conversations s ON s.setor_id = d.setor_id AND s.contact_id = ${survivorId}
      WHERE d.contact_id = ${mergedId} AND t.contact_id = ${mergedId} AND t.conversation_id = d.id`.execute(this.db);
    const moved = await sql`UPDATE tickets SET contact_id = ${survivorId} WHERE contact_id = ${mergedId}`.execute(this.db);
    // The joined conversation keeps the later of both last inbound and outbound instants (the contact's
    // last_inbound_at and stats read them): the merged one's are lost with its row otherwise.
    await sql`
      UPDATE conversations s SET last_inbound_at = greatest(s.last_inbound_at, d.last_inbound_at),
                                 last_outbound_at = greatest(s.last_outbound_at, d.last_outbound_at)
      FROM conversations d
      WHERE d.contact_id = ${mergedId} AND s.contact_id = ${survivorId} AND s.setor_id = d.setor_id`.execute(this.db);
    await sql`
      DELETE FROM conversations d USING conversations s
      WHERE d.contact_id = ${mergedId} AND s.contact_id = ${survivorId} AND s.setor_id = d.setor_id`.execute(this.db);
    await sql`UPDATE conversations SET contact_id = ${survivorId} WHERE contact_id = ${mergedId}`.execute(this.db);
    // The merged contact's messages are in conversations that are the survivor's now (messages have no contact_id index).
    await sql`
      UPDATE messages SET contact_id = ${survivorId}
      WHERE conversation_id IN (SELECT id FROM conversations WHERE contact_id = ${survivorId}) AND contact_id = ${mergedId}`.execute(this.db);
    // Through the company's campaigns (campaign_messages has no contact_id index: the send path updates its rows).
    await sql`
      UPDATE campaign_messages m SET contact_id = ${survivorId}
      FROM campaigns c WHERE c.company_id = ${companyId} AND m.campaign_id = c.id AND m.contact_id = ${mergedId}`.execute(this.db);
    // The merged contact's opportunities, contracts, appointments and scheduled messages become the survivor's (the
    // first two keep it by foreign key: its delete below would fail).
    await sql`UPDATE crm_opportunities SET client_id = ${survivorId} WHERE company_id = ${companyId} AND client_id = ${mergedId}`.execute(this.db);
    await sql`UPDATE contracts SET client_id = ${survivorId} WHERE company_id = ${companyId} AND client_id = ${mergedId}`.execute(this.db);
    await sql`UPDATE appointments SET client_id = ${survivorId} WHERE company_id = ${companyId} AND client_id = ${mergedId}`.execute(this.db);
    await sql`UPDATE scheduled_messages SET client_id = ${survivorId} WHERE company_id = ${companyId} AND client_id = ${mergedId}`.execute(this.db);
    await sql`
      INSERT INTO contact_tags (contact_id, tag_id, created_at)
      SELECT ${survivorId}, tag_id, created_at FROM contact_tags WHERE contact_id = ${mergedId}
      ON CONFLICT DO NOTHING`.execute(this.db);
    await sql`
      INSERT INTO contact_affinities (contact_id, setor_id, company_id, source, created_at)
      SELECT ${survivorId}, setor_id, company_id, source, created_at FROM contact_affinities WHERE contact_id = ${mergedId}
      ON CONFLICT DO NOTHING`.execute(this.db);
    await this.db.deleteFrom('contacts').where('id', '=', mergedId).where('company_id', '=', companyId).execute();
    return { movedTickets: Number(moved.numAffectedRows ?? 0) };
  }

  async removeCustomField(companyId: string, key: string, now: Date): Promise<number> {
    const result = await sql`
      UPDATE contacts SET custom_fields = custom_fields - ${key}::text, updated_at = ${now}
      WHERE company_id = ${companyId} AND custom_fields ? ${key}::text`.execute(this.db);
    return Number(result.numAffectedRows ?? 0);
  }

  /**
   * Three statements per batch: insert the new keys (ON CONFLICT DO NOTHING answers only what
   * was inserted), lock and rewrite the existing contacts that change, link the tags (answering
   * only the links inserted). The outcomes come from those answers, not from the input.
   */
  async writeBatch(companyId: string, rows: readonly ContactBatchRow[], mode: ContactImportMode, ids: IdGenerator, now: Date): Promise<ContactBatchOutcome[]> {
    if (rows.length === 0) return [];
    const keys = rows.map((r) => phoneMatchKey(r.phone));
    const newIds = rows.map(() => ids.newId());
    const inserted = await sql<{ id: string; phone_key: string }>`
      INSERT INTO contacts (id, company_id, phone, phone_key, name, email, custom_fields, ia_ativa, created_at, updated_at)
      SELECT t.id, ${companyId}::uuid, t.phone, t.phone_key, t.name, t.email, t.custom_fields, true, ${now}::timestamptz, ${now}::timestamptz
      FROM unnest(${newIds}::uuid[], ${rows.map((r) => r.phone)}::text[], ${keys}::text[], ${rows.map((r) => r.name)}::text[],
                  ${rows.map((r) => r.email)}::text[], ${rows.map((r) => JSON.stringify(r.customFields))}::jsonb[])
        AS t(id, phone, phone_key, name, email, custom_fields)
      ON CONFLICT (company_id, phone_key) DO NOTHING
      RETURNING id, phone_key`.execute(this.db);
    const createdByKey = new Map(inserted.rows.map((r) => [r.phone_key, r.id]));
    const existingKeys = keys.filter((k) => !createdByKey.has(k));
    const existing = existingKeys.length
      ? await this.db
          .selectFrom('contacts')
          .selectAll()
          .where('company_id', '=', companyId)
          .where('phone_key', '=', sql<string>`any(${existingKeys}::text[])`)
          .forUpdate()
          .execute()
      : [];
    const existingByKey = new Map(existing.map((r) => [r.phone_key, toContact(r)]));
    const changes: Contact[] = [];
    const contactIds: string[] = [];
    rows.forEach((row, i) => {
      const key = keys[i]!;
      const created = createdByKey.get(key);
      if (created) {
        contactIds.push(created);
        return;
      }
      const current = existingByKey.get(key);
      if (!current) throw new Error(`contact for ${key} vanished while importing`);
      contactIds.push(current.id);
      if (mode === 'create_only') return;
      const write = applyContactWrite(current, { name: row.name, email: row.email, customFields: row.customFields }, mode, now);
      if (write.changed) {
        changes.push(write.contact);
      }
    });
    const updatedIds = new Set<string>();
    if (changes.length > 0) {
      const updated = await sql<{ id: string }>`
        UPDATE contacts c SET name = v.name, email = v.email, custom_fields = v.custom_fields, updated_at = ${now}
        FROM unnest(${changes.map((c) => c.id)}::uuid[], ${changes.map((c) => c.name)}::text[], ${changes.map((c) => c.email)}::text[],
                    ${changes.map((c) => JSON.stringify(c.customFields))}::jsonb[]) AS v(id, name, email, custom_fields)
        WHERE c.id = v.id AND c.company_id = ${companyId}
        RETURNING c.id`.execute(this.db);
      for (const r of updated.rows) updatedIds.add(r.id);
    }
    const linkContacts: string[] = [];
    const linkTags: string[] = [];
    rows.forEach((row, i) => {
      // create_only leaves existing contacts alone, tags included.
      if (mode === 'create_only' && !createdByKey.has(keys[i]!)) return;
      for (const tagId of new Set(row.tagIds)) {
        linkContacts.push(contactIds[i]!);
        linkTags.push(tagId);
      }
    });
    const added = new Map<string, string[]>();
    if (linkContacts.length > 0) {
      const links = await sql<{ contact_id: string; tag_id: string }>`
        INSERT INTO contact_tags (contact_id, tag_id, created_at)
        SELECT u.contact_id, u.tag_id, ${now}::timestamptz
        FROM unnest(${linkContacts}::uuid[], ${linkTags}::uuid[]) AS u(contact_id, tag_id)
        -- A tag deleted since the import was checked is skipped, not a failed batch (FOR KEY SHARE: also one whose
        -- delete commits while this statement runs, which the join alone would see and the foreign key refuse).
        JOIN tags t ON t.id = u.tag_id AND t.company_id = ${companyId}::uuid
        FOR KEY SHARE OF t
        ON CONFLICT DO NOTHING
        RETURNING contact_id, tag_id`.execute(this.db);
      for (const l of links.rows) added.set(l.contact_id, [...(added.get(l.contact_id) ?? []), l.tag_id]);
    }
    return rows.map((_, i) => {
      const contactId = contactIds[i]!;
      const tagsAdded = added.get(contactId) ?? [];
      const outcome = createdByKey.has(keys[i]!) ? 'created' : updatedIds.has(contactId) || tagsAdded.length > 0 ? 'updated' : 'unchanged';
      return { contactId, outcome, tagsAdded };
    });
  }

  async findById(companyId: string, id: string): Promise<Contact | null> {
    if (!isUuid(id)) return null;
    return findCompanyRecord(this.db, 'contacts', companyId, id, toContact);
  }

  async findByPhone(companyId: string, phone: string): Promise<Contact | null> {
    const row = await this.db
      .selectFrom('contacts')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('phone_key', '=', phoneMatchKey(phone))
      .executeTakeFirst();
    return row ? toContact(row) : null;
  }

  async findManyByIds(companyId: string, ids: readonly string[]): Promise<Contact[]> {
    return findCompanyRecords(this.db, 'contacts', companyId, ids.filter(isUuid), toContact);
  }

  /**
   * One statement whatever the size: the rows of unnest(…) are inserted with ON CONFLICT DO NOTHING
   * (which waits for a concurrent inserter of the same key, then skips it) and the statement answers
   * the inserted rows together with those that existed before it. A key inserted and committed by a
   * concurrent caller while the statement ran is in neither half: a second, rare, query reads those.
   * The arrays travel as single text literals, much cheaper to encode than 10,000 array parameters.
   */
  async ensureMany(companyId: string, entries: readonly ContactEntry[], ids: IdGenerator, now: Date): Promise<EnsuredContact[]> {
    if (entries.length > MAX_ENSURE_CONTACTS) throw new ValidationError(`At most ${MAX_ENSURE_CONTACTS} contacts at once`);
    if (entries.length === 0) return [];
    const keys = entries.map((e) => phoneMatchKey(e.phone));
    const firstByKey = new Map<string, ContactEntry>();
    entries.forEach((e, i) => {
      if (!firstByKey.has(keys[i]!)) firstByKey.set(keys[i]!, e);
    });
    const uniqueKeys = [...firstByKey.keys()];
    const newIds = uniqueKeys.map(() => ids.newId());
    const phones = uniqueKeys.map((k) => firstByKey.get(k)!.phone);
    const names = uniqueKeys.map((k) => {
      const name = firstByKey.get(k)!.name;
      return name?.trim() ? name.trim() : null;
    });
    // Timestamps come back as epoch milliseconds: parsing 20,000 timestamptz strings costs more than the insert.
    const result = await sql<EnsuredRow>`
      WITH input AS (
        SELECT * FROM unnest(${pgArray(newIds)}::uuid[], ${pgArray(phones)}::text[], ${pgArray(uniqueKeys)}::text[], ${pgArray(names)}::text[])
          AS t(id, phone, phone_key, name)
      ), inserted AS (
        INSERT INTO contacts (id, company_id, phone, phone_key, name, created_at, updated_at)
        SELECT id, ${companyId}::uuid, phone, phone_key, name, ${now}::timestamptz, ${now}::timestamptz FROM input
        ON CONFLICT (company_id, phone_key) DO NOTHING
        RETURNING id, phone, phone_key, name, email, custom_fields, ia_ativa, ia_paused_until, created_at, updated_at
      )
      SELECT id, phone, phone_key, name, email, custom_fields, ia_ativa, ia_paused_until, (extract(epoch FROM created_at) * 1000)::float8 AS created_ms,
             (extract(epoch FROM updated_at) * 1000)::float8 AS updated_ms, true AS created
      FROM inserted
      UNION ALL
      SELECT c.id, c.phone, c.phone_key, c.name, c.email, c.custom_fields, c.ia_ativa, c.ia_paused_until, (extract(epoch FROM c.created_at) * 1000)::float8,
             (extract(epoch FROM c.updated_at) * 1000)::float8, false
      FROM contacts c JOIN input i ON c.company_id = ${companyId}::uuid AND c.phone_key = i.phone_key
    `.execute(this.db);
    const byKey = new Map<string, EnsuredContact>();
    for (const r of result.rows) {
      byKey.set(r.phone_key, {
        id: r.id,
        companyId,
        phone: r.phone,
        name: r.name,
        email: r.email,
        customFields: r.custom_fields ?? {},
        iaAtiva: r.ia_ativa,
        iaPausedUntil: r.ia_paused_until,
        createdAt: new Date(r.created_ms),
        updatedAt: new Date(r.updated_ms),
        created: r.created,
      });
    }
    const missing = uniqueKeys.filter((k) => !byKey.has(k));
    if (missing.length > 0) {
      const late = await this.db
        .selectFrom('contacts')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('phone_key', '=', sql<string>`any(${pgArray(missing)}::text[])`)
        .execute();
      for (const row of late) byKey.set(row.phone_key, { ...toContact(row), created: false });
    }
    return keys.map((key) => {
      const contact = byKey.get(key);
      if (!contact) throw new Error(`contact for ${key} vanished while being ensured`);
      return { ...contact };
    });
  }
}

interface EnsuredRow {
  id: string;
  phone: string;
  phone_key: string;
  name: string | null;
  email: string | null;
  custom_fields: Record<string, unknown> | null;
  ia_ativa: boolean;
  ia_paused_until: Date | null;
  created_ms: number;
  updated_ms: number;
  created: boolean;
}

/** A PostgreSQL array literal of text values (NULL for null), every element quoted and escaped. */
function pgArray(values: readonly (string | null)[]): string {
  const quote = (v: string) => (/["\\]/.test(v) ? `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"` : `"${v}"`);
  return `{${values.map((v) => (v === null ? 'NULL' : quote(v))).join(',')}}`;
}

export class KyselyContactAffinityRepository implements ContactAffinityRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async add(affinity: ContactAffinity): Promise<boolean> {
    const result = await this.db
      .insertInto('contact_affinities')
      .values({
        contact_id: affinity.contactId,
        setor_id: affinity.setorId,
        company_id: affinity.companyId,
        source: affinity.source,
        created_at: affinity.createdAt,
      })
      .onConflict((oc) => oc.columns(['contact_id', 'setor_id']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async listByContact(companyId: string, contactId: string): Promise<ContactAffinity[]> {
    const rows = await this.db
      .selectFrom('contact_affinities')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('contact_id', '=', contactId)
      .orderBy('created_at')
      .orderBy('setor_id')
      .execute();
    return rows.map((r) => ({
      companyId: r.company_id,
      contactId: r.contact_id,
      setorId: r.setor_id,
      source: r.source as AffinitySource,
      createdAt: r.created_at,
    }));
  }
}
