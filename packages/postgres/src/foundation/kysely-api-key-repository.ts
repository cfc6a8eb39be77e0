import type { ApiKey, ApiKeyRepository, KeyMode, Page, PageRequest } from '@carteiro/core';
import { pageOffset, toPage } from '@carteiro/core';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../shared/database.js';
import type { ApiKeysTable } from './foundation-tables.js';

/** A row of `api_keys` as the domain key. */
export function toApiKey(row: Selectable<ApiKeysTable>): ApiKey {
  return {
    id: row.id,
    companyId: row.company_id,
    name: row.name,
    prefix: row.prefix,
    keyHash: row.key_hash,
    scopes: row.scopes,
    mode: row.mode as KeyMode,
    rpm: row.rpm,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
    expiresAt: row.expires_at,
  };
}

export class KyselyApiKeyRepository implements ApiKeyRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(key: ApiKey): Promise<void> {
    await this.db
      .insertInto('api_keys')
      .values({
        id: key.id,
        company_id: key.companyId,
        name: key.name,
        prefix: key.prefix,
        key_hash: key.keyHash,
        scopes: key.scopes,
        mode: key.mode,
        rpm: key.rpm,
        created_at: key.createdAt,
        revoked_at: key.revokedAt,
        expires_at: key.expiresAt,
      })
      .execute();
  }

  async update(key: ApiKey): Promise<void> {
    await this.db
      .updateTable('api_keys')
      .set({ name: key.name, scopes: key.scopes, rpm: key.rpm, revoked_at: key.revokedAt, expires_at: key.expiresAt })
      .where('id', '=', key.id)
      .execute();
  }

  async findById(id: string): Promise<ApiKey | null> {
    const row = await this.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toApiKey(row) : null;
  }

  async findByHash(keyHash: string): Promise<ApiKey | null> {
    const row = await this.db.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
    return row ? toApiKey(row) : null;
  }

  async listByCompany(companyId: string, page: PageRequest): Promise<Page<ApiKey>> {
    const [rows, total] = await Promise.all([
      this.db
        .selectFrom('api_keys')
        .selectAll()
        .where('company_id', '=', companyId)
        .orderBy('created_at')
        .orderBy('id')
        .limit(page.limit)
        .offset(pageOffset(page))
        .execute(),
      this.db
        .selectFrom('api_keys')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('company_id', '=', companyId)
        .executeTakeFirstOrThrow(),
    ]);
    return toPage(rows.map(toApiKey), total.n, page);
  }
}
