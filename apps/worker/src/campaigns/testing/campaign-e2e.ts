import request from 'supertest';
import type { Database } from '@carteiro/postgres';
import type { Kysely } from 'kysely';
export { simulatorOverride } from './simulator-override.js';
import type { Express } from 'express';

/** What these helpers need of the API test harness (apps/api/src/testing/test-api.ts). */
export interface TestApi {
  app: Express;
  adminAuth: Record<string, string>;
  createCompany(settings?: Record<string, unknown>): Promise<{ id: string }>;
  createKey(companyId: string, options?: { scopes?: string[]; mode?: 'live' | 'test'; rpm?: number }): Promise<string>;
  createSetor(companyId: string, options?: { nome?: string }): Promise<{ id: string }>;
  connectSetor(companyId: string, setorId: string, phoneNumber?: string): Promise<unknown>;
}

/** Never ends in 0001-0005, the simulator’s failing numbers. */
export const phone = (n: number) => `+55119${String(60000000 + n * 10 + 6).padStart(8, "0")}`;

/** A company with connected setores (warming lifted for volume tests) and a live key. */
export async function campaignTenant(api: TestApi, options: { boxes?: number; warmingLimit?: number | null; settings?: Record<string, unknown> } = {}) {
  const company = await api.createCompany({ company_rpm: 100_000, safe_hours: { start: 0, end: 24 }, daily_limit: 100_000, ...options.settings });
  const setores: string[] = [];
  for (let i = 0; i < (options.boxes ?? 1); i += 1) {
    const setor = await api.createSetor(company.id, { nome: `Caixa ${i + 1}` });
    await api.connectSetor(company.id, setor.id);
    if (options.warmingLimit !== undefined) {
      await request(api.app).patch(`/admin/v1/setores/${setor.id}`).set(api.adminAuth).send({ warming_daily_limit: options.warmingLimit }).expect(200);
    }
    setores.push(setor.id);
  }
  const key = await api.createKey(company.id, { scopes: ['campaigns:read', 'campaigns:write'], mode: 'live', rpm: 100_000 });
  return { company, setores, auth: { Authorization: `Bearer ${key}` } };
}

/** Outbox rows of the simulator for a company, oldest first. */
export async function outbox(db: Kysely<Database>, companyId: string) {
  return db
    .selectFrom('simulator_messages')
    .select(['client_message_id', 'setor_id', 'to_number', 'text', 'outcome', 'error_code', 'sent_at'])
    .where('company_id', '=', companyId)
    .orderBy('seq')
    .execute();
}
