import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { AdminService, hashApiKey } from '@carteiro/core';
import type { Database } from '@carteiro/postgres';

const ADMIN_TOKEN_HASH = 'admin_token_sha256';

/** What a first start created, to print once. */
export interface FirstStartSecrets {
  adminToken: string | null;
  demo: { companyId: string; apiKey: string; setorId: string } | null;
}

/**
 * Resolves the admin token: `ADMIN_TOKEN` when set; otherwise, on an embedded database, a token
 * generated on the first start whose hash is kept in the database (the token itself is shown once);
 * otherwise none, and the admin API answers 404.
 */
export async function resolveAdminToken(
  db: Kysely<Database>,
  configured: string | undefined,
  embedded: boolean,
): Promise<{ hash: string | undefined; generated: string | null }> {
  if (configured) return { hash: hashApiKey(configured), generated: null };
  if (!embedded) return { hash: undefined, generated: null };
  const stored = await db.selectFrom('system_settings').select('value').where('key', '=', ADMIN_TOKEN_HASH).executeTakeFirst();
  if (stored) return { hash: stored.value, generated: null };
  const token = `adm_${randomBytes(24).toString('base64url')}`;
  const inserted = await db
    .insertInto('system_settings')
    .values({ key: ADMIN_TOKEN_HASH, value: hashApiKey(token), updated_at: new Date() })
    .onConflict((oc) => oc.column('key').doNothing())
    .returning('value')
    .executeTakeFirst();
  if (inserted) return { hash: inserted.value, generated: token };
  // Another process won the race: its token stands.
  const winner = await db.selectFrom('system_settings').select('value').where('key', '=', ADMIN_TOKEN_HASH).executeTakeFirstOrThrow();
  return { hash: winner.value, generated: null };
}

/**
 * On an empty database: a demo company with an `ak_test_` key holding every scope and one
 * simulated setor, its number already connected so that the first send works at once.
 */
export async function seedDemo(
  db: Kysely<Database>,
  admin: AdminService,
  connect: (companyId: string, setorId: string) => Promise<void>,
): Promise<FirstStartSecrets['demo']> {
  const { count } = await db.selectFrom('companies').select(sql<number>`count(*)::int`.as('count')).executeTakeFirstOrThrow();
  if (count > 0) return null;
  const company = await admin.createCompany({ name: 'Demo Company' });
  const issued = await admin.createApiKey(company.id, { name: 'demo (test mode)', scopes: ['*'], mode: 'test' });
  const setor = await admin.createSetor(company.id, { nome: 'Demo' });
  await connect(company.id, setor.id);
  return { companyId: company.id, apiKey: issued.key, setorId: setor.id };
}
