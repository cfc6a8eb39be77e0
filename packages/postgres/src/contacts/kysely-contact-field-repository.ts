import type { ContactFieldDefinition, ContactFieldRepository, ContactFieldType } from '@carteiro/core';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../shared/database.js';
import { countCompanyRows, findRecord } from '../shared/records.js';
import { columnsOf, fieldsOf } from '../shared/row-fields.js';
import type { ContactFieldDefinitionsTable } from './contacts-tables.js';

function toDefinition(row: Selectable<ContactFieldDefinitionsTable>): ContactFieldDefinition {
  return { ...fieldsOf(row, ['id', 'company_id', 'key', 'label', 'options', 'created_at', 'updated_at']), type: row.type as ContactFieldType };
}

export class KyselyContactFieldRepository implements ContactFieldRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(definition: ContactFieldDefinition): Promise<ContactFieldDefinition | null> {
    const inserted = await this.db
      .insertInto('contact_field_definitions')
      .values({
        ...columnsOf(definition, ['id', 'companyId', 'key', 'label', 'type', 'createdAt', 'updatedAt']),
        options: JSON.stringify(definition.options),
      })
      .onConflict((oc) => oc.columns(['company_id', 'key']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) return null;
    const row = await this.db
      .selectFrom('contact_field_definitions')
      .selectAll()
      .where('company_id', '=', definition.companyId)
      .where('key', '=', definition.key)
      .executeTakeFirstOrThrow();
    return toDefinition(row);
  }

  async update(definition: ContactFieldDefinition): Promise<void> {
    await this.db
      .updateTable('contact_field_definitions')
      .set({ label: definition.label, options: JSON.stringify(definition.options), updated_at: definition.updatedAt })
      .where('id', '=', definition.id)
      .execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('contact_field_definitions').where('id', '=', id).execute();
  }

  async findByIdForUpdate(id: string): Promise<ContactFieldDefinition | null> {
    return findRecord(this.db, 'contact_field_definitions', id, toDefinition, 'forUpdate');
  }

  async list(companyId: string): Promise<ContactFieldDefinition[]> {
    const rows = await this.db.selectFrom('contact_field_definitions').selectAll().where('company_id', '=', companyId).orderBy('key').execute();
    return rows.map(toDefinition);
  }

  async listForUse(companyId: string, keys: readonly string[]): Promise<ContactFieldDefinition[]> {
    if (keys.length === 0) return [];
    // FOR KEY SHARE: the delete's FOR UPDATE waits for it (and it for the delete); writers of values do not block each other.
    const rows = await this.db
      .selectFrom('contact_field_definitions')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('key', 'in', [...keys])
      .orderBy('key')
      .forKeyShare()
      .execute();
    return rows.map(toDefinition);
  }

  async count(companyId: string): Promise<number> {
    return countCompanyRows(this.db, 'contact_field_definitions', companyId);
  }
}
