import {
  MAX_ENSURE_CONTACTS,
  ValidationError,
  phoneMatchKey,
  type AffinitySource,
  type Contact,
  type ContactAffinity,
  type ContactAffinityRepository,
  type ContactEntry,
  type ContactRepository,
  type EnsuredContact,
  type IdGenerator,
  type Tag,
  type TagRepository,
} from '@carteiro/core';
import { isUuid } from '@carteiro/core';
import { sql, type Kysely, type Selectable } from 'kysely';

import type { Database } from '../shared/database.js';
import type { ContactsTable } from './messages-tables.js';

function toContact(row: Selectable<ContactsTable>): Contact {
  return { id: row.id, companyId: row.company_id, phone: row.phone, name: row.name, createdAt: row.created_at, updatedAt: row.updated_at };
}

export class KyselyContactRepository implements ContactRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(contact: Contact): Promise<void> {
    await this.db
      .insertInto('contacts')
      .values({
        id: contact.id,
        company_id: contact.companyId,
        phone: contact.phone,
        phone_key: phoneMatchKey(contact.phone),
        name: contact.name,
        created_at: contact.createdAt,
        updated_at: contact.updatedAt,
      })
      .execute();
  }

  async findById(companyId: string, id: string): Promise<Contact | null> {
    if (!isUuid(id)) return null;
    const row = await this.db.selectFrom('contacts').selectAll().where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst();
    return row ? toContact(row) : null;
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
    ids = ids.filter(isUuid);
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('contacts')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('id', '=', sql<string>`any(${[...ids]}::uuid[])`)
      .execute();
    return rows.map(toContact);
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
        RETURNING id, phone, phone_key, name, created_at, updated_at
      )
      SELECT id, phone, phone_key, name, (extract(epoch FROM created_at) * 1000)::float8 AS created_ms,
             (extract(epoch FROM updated_at) * 1000)::float8 AS updated_ms, true AS created
      FROM inserted
      UNION ALL
      SELECT c.id, c.phone, c.phone_key, c.name, (extract(epoch FROM c.created_at) * 1000)::float8,
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

export class KyselyTagRepository implements TagRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(tag: Tag): Promise<void> {
    await this.db.insertInto('tags').values({ id: tag.id, company_id: tag.companyId, name: tag.name, created_at: tag.createdAt }).execute();
  }

  async findManyByIds(companyId: string, ids: readonly string[]): Promise<Tag[]> {
    ids = ids.filter(isUuid);
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('tags')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('id', '=', sql<string>`any(${[...ids]}::uuid[])`)
      .execute();
    return rows.map((r) => ({ id: r.id, companyId: r.company_id, name: r.name, createdAt: r.created_at }));
  }

  async tagContact(contactId: string, tagIds: readonly string[], now: Date): Promise<string[]> {
    const unique = [...new Set(tagIds)];
    if (unique.length === 0) return [];
    const rows = await this.db
      .insertInto('contact_tags')
      .values(unique.map((tagId) => ({ contact_id: contactId, tag_id: tagId, created_at: now })))
      .onConflict((oc) => oc.columns(['contact_id', 'tag_id']).doNothing())
      .returning('tag_id')
      .execute();
    const added = new Set(rows.map((r) => r.tag_id));
    return unique.filter((id) => added.has(id));
  }

  async tagIdsOfContact(contactId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('contact_tags').select('tag_id').where('contact_id', '=', contactId).orderBy('created_at').execute();
    return rows.map((r) => r.tag_id);
  }
}
