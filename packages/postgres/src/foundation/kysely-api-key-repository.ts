import type { ApiKey, ApiKeyRepository, KeyMode, Page, PageRequest } from '@carteiro/core';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../shared/database.js';
import { findRecord } from '../shared/records.js';
import { readPage } from '../shared/read-page.js';
import { columnsOf, fieldsOf } from '../shared/row-fields.js';
import type { ApiKeysTable } from './foundation-tables.js';

/** A row of `api_keys` as the domain key. */
export function toApiKey(row: Selectable<ApiKeysTable>): ApiKey {
  return {
    ...fieldsOf(row, ['id', 'company_id', 'name', 'prefix', 'key_hash', 'scopes', 'rpm', 'created_at', 'revoked_at', 'expires_at']),
    mode: row.mode as KeyMode,
  };
}

export class KyselyApiKeyRepository implements ApiKeyRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(key: ApiKey): Promise<void> {
    await this.db
      .insertInto('api_keys')
      .values(columnsOf(key, ['id', 'companyId', 'name', 'prefix', 'keyHash', 'scopes', 'mode', 'rpm', 'createdAt', 'revokedAt', 'expiresAt']))
      .execute();
  }

  async update(key: ApiKey): Promise<void> {
    await this.db
      .updateTable('api_keys')
      .set(columnsOf(key, ['name', 'scopes', 'rpm', 'revokedAt', 'expiresAt']))
      .where('id', '=', key.id)
      .execute();
  }

  async findById(id: string): Promise<ApiKey | null> {
    return findRecord(this.db, 'api_keys', id, toApiKey);
  }

  async findByIdForUpdate(id: string): Promise<ApiKey | null> {
    return findRecord(this.db, 'api_keys', id, toApiKey, 'forUpdate');
  }

  async findByHash(keyHash: string): Promise<ApiKey | null> {
    const row = await this.db.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
    return row ? toApiKey(row) : null;
  }

  async listByCompany(companyId: string, page: PageRequest): Promise<Page<ApiKey>> {
    const ofCompany = this.db.selectFrom('api_keys').where('company_id', '=', companyId);
    return readPage(ofCompany, (q) => q.selectAll().orderBy('created_at').orderBy('id'), page, (rows) => rows.map(toApiKey));
  }
}
