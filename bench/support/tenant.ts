// The database and the tenant the child-process benchmarks run against: an embedded PostgreSQL
// started by the bench (fsync off, as in tests and the other benchmarks) and a company set up
// through the service's own admin API, with numbers connected on the simulator.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { SIMULATOR_REF_PREFIX, simulatedPhoneNumber } from '@carteiro/channels';
import { KyselyUnitOfWork, createDb, ensureDatabase, startEmbeddedPostgres, type Database } from '@carteiro/postgres';

export interface BenchDatabase {
  url: string;
  db: Kysely<Database>;
  /** `SHOW server_version`. */
  version: string;
  stop(): Promise<void>;
}

export const ADMIN_TOKEN = `adm_bench_${randomUUID()}`;

export async function startBenchDatabase(name: string): Promise<BenchDatabase> {
  let dataDir: string | null = null;
  let stopPg: (() => Promise<void>) | null = null;
  const dbName = `bench_${name}_${randomUUID().slice(0, 8)}`;
  let url: string;
  if (process.env.BENCH_DATABASE_URL) {
    await ensureDatabase(process.env.BENCH_DATABASE_URL, dbName);
    const parsed = new URL(process.env.BENCH_DATABASE_URL);
    parsed.pathname = `/${dbName}`;
    url = parsed.toString();
  } else {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'carteiro-bench-'));
    const pg = await startEmbeddedPostgres({ dataDir, ephemeral: true });
    stopPg = pg.stop;
    await ensureDatabase(pg.adminUrl, dbName);
    url = pg.urlFor(dbName);
  }
  const db = createDb(url, { poolSize: 4, applicationName: 'carteiro-bench-setup' });
  const { rows } = await sql<{ server_version: string }>`SHOW server_version`.execute(db);
  return {
    url,
    db,
    version: rows[0]?.server_version ?? 'unknown',
    async stop() {
      await db.destroy();
      if (stopPg) await stopPg();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A JSON call of the service with `authorization` (the admin token by default); its `data`, or a thrown error with the answer. */
export async function apiCall<T>(baseUrl: string, method: string, path: string, body?: unknown, authorization = `Bearer ${ADMIN_TOKEN}`): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { Authorization: authorization, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return (JSON.parse(text) as { data: T }).data;
}

/** A call of the operator's /admin/v1 API with the bench's admin token. */
export function admin<T>(baseUrl: string, method: string, route: string, body: unknown): Promise<T> {
  return apiCall<T>(baseUrl, method, `/admin/v1${route}`, body);
}

export interface Tenant {
  companyId: string;
  setorIds: string[];
  /** Full key with every scope: an `ak_test_` key (sends go to the simulator, no credits) unless made live. */
  key: string;
}

/**
 * A company with no limit in the way (rate limits at their maximum, every hour safe, large daily
 * and warming limits) and `boxes` numbers connected on the simulator. The service must be running
 * (it has migrated the database); the connected sessions are written as the demo seed writes its own.
 * Its key is a test key unless `options.mode` says `live`.
 */
export async function createTenant(
  baseUrl: string,
  db: Kysely<Database>,
  boxes: number,
  options: { name?: string; mode?: 'test' | 'live' } = {},
): Promise<Tenant> {
  const company = await admin<{ id: string }>(baseUrl, 'POST', '/companies', {
    name: options.name ?? 'Bench',
    unlimited: true,
    daily_limit: 100_000_000,
    concurrent_campaigns_limit: 1_000,
    company_rpm: 10_000_000,
    safe_hours: { start: 0, end: 24 },
  });
  const issued = await admin<{ key: string }>(baseUrl, 'POST', `/companies/${company.id}/api-keys`, {
    name: 'bench',
    scopes: ['*'],
    mode: options.mode ?? 'test',
    rpm: 100_000,
  });
  const uow = new KyselyUnitOfWork(db);
  const setorIds: string[] = [];
  for (let i = 0; i < boxes; i += 1) {
    const setor = await admin<{ id: string }>(baseUrl, 'POST', `/companies/${company.id}/setores`, { nome: `Box ${i}` });
    await admin(baseUrl, 'PATCH', `/setores/${setor.id}`, { warming_daily_limit: 10_000_000 });
    const now = new Date();
    const id = randomUUID();
    await uow.transaction((tx) =>
      tx.channelInstances.insert({
        id,
        companyId: company.id,
        setorId: setor.id,
        status: 'connected',
        phoneNumber: simulatedPhoneNumber(setor.id),
        providerRef: `${SIMULATOR_REF_PREFIX}${id}`,
        proxyConfigured: false,
        qrRequestedAt: now,
        connectedAt: now,
        disconnectedAt: null,
        profileName: 'Bench',
        profilePictureUrl: null,
        createdAt: now,
        updatedAt: now,
      }),
    );
    setorIds.push(setor.id);
  }
  return { companyId: company.id, setorIds, key: issued.key };
}

/** Valid Brazilian mobiles that never end in the simulator's failing 0001-0005. */
export const phoneOf = (n: number) => `+55119${60_000_000 + ((n * 10 + 6) % 40_000_000)}`;

/** POST /v1/campaigns; returns the campaign id. */
export async function createCampaign(baseUrl: string, key: string, recipients: number, offset = 0): Promise<string> {
  const res = await fetch(`${baseUrl}/v1/campaigns`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      name: 'Bench',
      recipients: Array.from({ length: recipients }, (_, i) => ({ phone: phoneOf(offset + i), name: `Cliente ${offset + i}` })),
      message: { text: 'Olá {{primeiro_nome}}' },
      options: { anti_ban_level: 'normal' },
    }),
  });
  const text = await res.text();
  if (res.status !== 202) throw new Error(`POST /v1/campaigns answered ${res.status}: ${text.slice(0, 300)}`);
  return (JSON.parse(text) as { data: { id: string } }).data.id;
}
