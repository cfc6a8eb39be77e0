import type { Page, PageRequest, Tag, TagRepository, TagRule, TagRuleMatchType, TagRuleRepository, TagRuleScope } from '@carteiro/core';
import { isUuid } from '@carteiro/core';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../shared/database.js';
import { countCompanyRows, findCompanyRecord, findCompanyRecords } from '../shared/records.js';
import { readPage } from '../shared/read-page.js';
import { columnsOf, fieldsOf } from '../shared/row-fields.js';
import type { TagRulesTable, TagsTable } from './contacts-tables.js';

function toTag(r: Selectable<TagsTable>): Tag {
  return { id: r.id, companyId: r.company_id, name: r.name, description: r.description, color: r.color, createdAt: r.created_at, updatedAt: r.updated_at };
}

/** The rule's plain fields (match type and scope are narrowed beside them). */
const RULE_FIELDS = ['id', 'companyId', 'tagId', 'matchValue', 'caseSensitive', 'setorIds', 'enabled', 'createdAt', 'updatedAt'] as const;

function toRule(r: Selectable<TagRulesTable>): TagRule {
  return {
    ...fieldsOf(r, ['id', 'company_id', 'tag_id', 'match_value', 'case_sensitive', 'setor_ids', 'enabled', 'created_at', 'updated_at']),
    matchType: r.match_type as TagRuleMatchType,
    scope: r.scope as TagRuleScope,
  };
}

export class KyselyTagRepository implements TagRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private values(tag: Tag) {
    return {
      id: tag.id,
      company_id: tag.companyId,
      name: tag.name,
      description: tag.description ?? null,
      color: tag.color ?? null,
      created_at: tag.createdAt,
      updated_at: tag.updatedAt ?? tag.createdAt,
    };
  }

  private async named(companyId: string, name: string): Promise<Tag | null> {
    const row = await this.db.selectFrom('tags').selectAll().where('company_id', '=', companyId).where(sql`lower(name)`, '=', name.toLowerCase()).executeTakeFirst();
    return row ? toTag(row) : null;
  }

  async insert(tag: Tag): Promise<void> {
    await this.db.insertInto('tags').values(this.values(tag)).execute();
  }

  async insertUnique(tag: Tag): Promise<Tag | null> {
    const inserted = await sql<{ id: string }>`
      INSERT INTO tags (id, company_id, name, description, color, created_at, updated_at)
      VALUES (${tag.id}, ${tag.companyId}, ${tag.name}, ${tag.description ?? null}, ${tag.color ?? null}, ${tag.createdAt}, ${tag.updatedAt ?? tag.createdAt})
      ON CONFLICT DO NOTHING RETURNING id`.execute(this.db);
    if (inserted.rows.length > 0) return null;
    return this.named(tag.companyId, tag.name);
  }

  async update(tag: Tag): Promise<Tag | null> {
    const clash = await this.named(tag.companyId, tag.name);
    if (clash && clash.id !== tag.id) return clash;
    try {
      await this.db
        .updateTable('tags')
        .set({ name: tag.name, description: tag.description ?? null, color: tag.color ?? null, updated_at: tag.updatedAt ?? tag.createdAt })
        .where('id', '=', tag.id)
        .where('company_id', '=', tag.companyId)
        .execute();
    } catch (error) {
      // A concurrent rename took the name between the check and the write.
      if ((error as { code?: string }).code === '23505') return (await this.named(tag.companyId, tag.name)) ?? tag;
      throw error;
    }
    return null;
  }

  async findById(companyId: string, id: string): Promise<Tag | null> {
    if (!isUuid(id)) return null;
    return findCompanyRecord(this.db, 'tags', companyId, id, toTag);
  }

  async findManyByIds(companyId: string, ids: readonly string[]): Promise<Tag[]> {
    return findCompanyRecords(this.db, 'tags', companyId, ids.filter(isUuid), toTag);
  }

  async list(companyId: string, q: string | undefined, request: PageRequest): Promise<Page<Tag>> {
    let query = this.db.selectFrom('tags').where('company_id', '=', companyId);
    if (q) query = query.where(sql`lower(name)`, 'like', `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    return readPage(query, (select) => select.selectAll().orderBy(sql`lower(name)`).orderBy('id'), request, (rows) => rows.map(toTag));
  }

  async count(companyId: string): Promise<number> {
    return countCompanyRows(this.db, 'tags', companyId);
  }

  async delete(companyId: string, id: string): Promise<{ contacts: number; rules: number }> {
    if (!isUuid(id)) return { contacts: 0, rules: 0 };
    const links = await this.db.deleteFrom('contact_tags').where('tag_id', '=', id).executeTakeFirst();
    const rules = await this.db.deleteFrom('tag_rules').where('tag_id', '=', id).where('company_id', '=', companyId).executeTakeFirst();
    await this.db.deleteFrom('tags').where('id', '=', id).where('company_id', '=', companyId).execute();
    return { contacts: Number(links.numDeletedRows), rules: Number(rules.numDeletedRows) };
  }

  async tagContact(contactId: string, tagIds: readonly string[], now: Date): Promise<string[]> {
    const unique = [...new Set(tagIds)];
    if (unique.length === 0) return [];
    // One text whatever the count (a prepared statement; the inbound rules tag a stored contact per message).
    // FOR KEY SHARE: a tag deleted meanwhile is skipped (the locking read waits for the delete and drops the row)
    // instead of failing the foreign key; a tag read here cannot be deleted before this transaction ends.
    const { rows } = await sql<{ tag_id: string }>`
      INSERT INTO contact_tags (contact_id, tag_id, created_at)
      SELECT ${contactId}::uuid, t.id, ${now}::timestamptz FROM tags t WHERE t.id = ANY(${unique}::uuid[]) FOR KEY SHARE
      ON CONFLICT (contact_id, tag_id) DO NOTHING
      RETURNING tag_id`.execute(this.db);
    const added = new Set(rows.map((r) => r.tag_id));
    return unique.filter((id) => added.has(id));
  }

  async linkContactTags(links: readonly { contactId: string; tagId: string }[], now: Date): Promise<void> {
    if (links.length === 0) return;
    // One text whatever the count (a prepared statement; an inbound group's links). A tag deleted meanwhile is
    // skipped, as in tagContact.
    await sql`
      INSERT INTO contact_tags (contact_id, tag_id, created_at)
      SELECT x.contact_id, t.id, ${now}::timestamptz
      FROM unnest(${links.map((l) => l.contactId)}::uuid[], ${links.map((l) => l.tagId)}::uuid[]) AS x(contact_id, tag_id)
      JOIN tags t ON t.id = x.tag_id
      FOR KEY SHARE OF t
      ON CONFLICT (contact_id, tag_id) DO NOTHING`.execute(this.db);
  }

  async tagIdsOfContact(contactId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('contact_tags').select('tag_id').where('contact_id', '=', contactId).orderBy('created_at').execute();
    return rows.map((r) => r.tag_id);
  }
}

export class KyselyTagRuleRepository implements TagRuleRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(rule: TagRule): Promise<void> {
    await this.db.insertInto('tag_rules').values({ ...columnsOf(rule, RULE_FIELDS), match_type: rule.matchType, scope: rule.scope }).execute();
  }

  async update(rule: TagRule): Promise<void> {
    await this.db
      .updateTable('tag_rules')
      .set({ ...columnsOf(rule, ['tagId', 'matchValue', 'caseSensitive', 'setorIds', 'enabled', 'updatedAt']), match_type: rule.matchType, scope: rule.scope })
      .where('id', '=', rule.id)
      .where('company_id', '=', rule.companyId)
      .execute();
  }

  async delete(companyId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const result = await this.db.deleteFrom('tag_rules').where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async findById(companyId: string, id: string): Promise<TagRule | null> {
    if (!isUuid(id)) return null;
    return findCompanyRecord(this.db, 'tag_rules', companyId, id, toRule);
  }

  async list(companyId: string, request: PageRequest): Promise<Page<TagRule>> {
    const base = this.db.selectFrom('tag_rules').where('company_id', '=', companyId);
    return readPage(base, (q) => q.selectAll().orderBy('created_at').orderBy('id'), request, (rows) => rows.map(toRule));
  }

  async listEnabled(companyId: string): Promise<TagRule[]> {
    const rows = await this.db.selectFrom('tag_rules').selectAll().where('company_id', '=', companyId).where('enabled', '=', true).orderBy('created_at').orderBy('id').execute();
    return rows.map(toRule);
  }

  async count(companyId: string): Promise<number> {
    return countCompanyRows(this.db, 'tag_rules', companyId);
  }
}
