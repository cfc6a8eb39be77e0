import type { Express } from 'express';
import type { Container, ContainerModule } from 'inversify';
import type PgBoss from 'pg-boss';
import { pino } from 'pino';
import request from 'supertest';
import { UnitOfWork, type ChannelInstance, type Scope } from '@carteiro/core';
import { createBoss, ensureDeclaredQueues } from '@carteiro/pgboss';
import { createTestDatabase, type TestDatabase } from '@carteiro/postgres/testing';
import { loadConfig, type Config } from '@carteiro/system';
import { createApp } from '../app.js';
import { buildApiContainer, type ApiInfrastructure } from '../composition-root.js';
import type { ServiceUnitOfWork } from '@carteiro/postgres';

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789';

const silentLogger = pino({ level: 'silent' });

export interface TestCompany {
  id: string;
  [setting: string]: unknown;
}

/** What `createKey` asks the admin API for (defaults: every scope, test mode, no rpm of the key's own). */
export interface TestKeyOptions {
  scopes?: (Scope | '*')[];
  mode?: 'live' | 'test';
  rpm?: number;
}

/** What `createSetor` asks the admin API for (default: a QR box named Caixa). */
export interface TestSetorOptions {
  nome?: string;
  channel_type?: 'qr' | 'official';
  official?: Record<string, string>;
}

/** A company ready to send: its key (and that key as an Authorization header) and a connected setor. */
export interface TestTenant {
  company: TestCompany;
  key: string;
  auth: { Authorization: string };
  setor: { id: string };
  instance: ChannelInstance;
}

export interface TestApi {
  app: Express;
  container: Container;
  database: TestDatabase;
  boss: PgBoss;
  config: Config;
  /** Authorization header of the admin API. */
  adminAuth: { Authorization: string };
  createCompany(settings?: Record<string, unknown>): Promise<TestCompany>;
  /** Creates a key through the admin API and returns the full key. */
  createKey(companyId: string, options?: TestKeyOptions): Promise<string>;
  createSetor(companyId: string, options?: TestSetorOptions): Promise<{ id: string }>;
  /** Marks the setor's channel instance connected, as if its QR code had been scanned. */
  connectSetor(companyId: string, setorId: string, phoneNumber?: string): Promise<ChannelInstance>;
  /**
   * A company with these settings, a key of it with these options and one setor with these, connected: what most
   * client-API tests start from (the same admin calls in the same order as one by one).
   */
  createTenant(options?: { settings?: Record<string, unknown>; key?: TestKeyOptions; setor?: TestSetorOptions }): Promise<TestTenant>;
  close(): Promise<void>;
}

let phoneCounter = 0;

/**
 * The whole API on a fresh database of its own with a real pg-boss, ready for supertest.
 * Call `close()` in the test file's afterAll.
 */
export async function createTestApi(options: { env?: Record<string, string>; overrides?: ContainerModule[] } = {}): Promise<TestApi> {
  const database = await createTestDatabase({ poolSize: 10 });
  const config = loadConfig({ ADMIN_TOKEN: TEST_ADMIN_TOKEN, ALLOW_PRIVATE_WEBHOOKS: '1', ...options.env });
  const boss = createBoss(database.url, { worker: false });
  boss.on('error', () => undefined);
  await boss.start();
  const container = buildApiContainer({
    config,
    db: database.db,
    boss,
    logger: silentLogger,
    readiness: async () => true,
    overrides: options.overrides,
  });
  await ensureDeclaredQueues(boss, container);
  const app = createApp(container);
  const adminAuth = { Authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
  let closed = false;

  const api: TestApi = {
    app,
    container,
    database,
    boss,
    config,
    adminAuth,
    async createCompany(settings = {}) {
      const res = await request(app).post('/admin/v1/companies').set(adminAuth).send({ name: 'Test Co', ...settings });
      if (res.status !== 201) throw new Error(`createCompany: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
    async createKey(companyId, { scopes = ['*'], mode = 'test', rpm } = {}) {
      const res = await request(app)
        .post(`/admin/v1/companies/${companyId}/api-keys`)
        .set(adminAuth)
        .send({ name: 'test key', scopes, mode, ...(rpm ? { rpm } : {}) });
      if (res.status !== 201) throw new Error(`createKey: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data.key;
    },
    async createSetor(companyId, { nome = 'Caixa', ...rest } = {}) {
      const res = await request(app).post(`/admin/v1/companies/${companyId}/setores`).set(adminAuth).send({ nome, ...rest });
      if (res.status !== 201) throw new Error(`createSetor: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
    async connectSetor(companyId, setorId, phoneNumber) {
      const uow = container.get<ServiceUnitOfWork>(UnitOfWork);
      phoneCounter += 1;
      const now = new Date();
      const phone = phoneNumber ?? `+55119${String(70000000 + phoneCounter).padStart(8, '0')}`;
      return uow.transaction(async (tx) => {
        const existing = await tx.channelInstances.findBySetor(setorId);
        const instance: ChannelInstance = {
          id: existing?.id ?? crypto.randomUUID(),
          companyId,
          setorId,
          status: 'connected',
          phoneNumber: phone,
          providerRef: existing?.providerRef ?? null,
          proxyConfigured: false,
          qrRequestedAt: existing?.qrRequestedAt ?? now,
          connectedAt: now,
          disconnectedAt: null,
          profileName: null,
          profilePictureUrl: null,
          createdAt: existing?.createdAt ?? now,
          updatedAt: now,
        };
        if (existing) await tx.channelInstances.update(instance);
        else await tx.channelInstances.insert(instance);
        return instance;
      });
    },
    async createTenant({ settings, key: keyOptions, setor: setorOptions } = {}) {
      const company = await api.createCompany(settings);
      const key = await api.createKey(company.id, keyOptions);
      const setor = await api.createSetor(company.id, setorOptions);
      const instance = await api.connectSetor(company.id, setor.id);
      return { company, key, auth: { Authorization: `Bearer ${key}` }, setor, instance };
    },
    async close() {
      if (closed) return;
      closed = true;
      await boss.stop({ graceful: false, wait: true }).catch(() => undefined);
      await database.destroy();
    },
  };
  return api;
}

/**
 * The app of a second API process on the test API's database and pg-boss: its own container (and
 * so its own in-process state), the same PostgreSQL. `config`, `logger` and `overrides` are that
 * process's alone; by default it has the test API's config and a silent logger.
 */
export function secondApiApp(api: TestApi, options: Partial<Pick<ApiInfrastructure, 'config' | 'logger' | 'overrides'>> = {}): Express {
  return createApp(
    buildApiContainer({
      config: options.config ?? api.config,
      db: api.database.db,
      boss: api.boss,
      logger: options.logger ?? silentLogger,
      readiness: async () => true,
      overrides: options.overrides,
    }),
  );
}
