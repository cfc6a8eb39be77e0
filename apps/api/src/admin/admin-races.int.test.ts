import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sql } from 'kysely';
import request from 'supertest';
import { createTestApi, type TestApi } from '../testing/test-api.js';

/**
 * Concurrent operator writes of API keys (operations.md §2: a rotated key keeps working for the grace period, a revoked
 * one answers 401 at once): a revoke is never undone by a rotation that read the key before it.
 */
let api: TestApi;
beforeAll(async () => {
  api = await createTestApi();
});
afterAll(() => api.close());

const keyRow = async (id: string) =>
  (await sql<{ revoked_at: Date | null; expires_at: Date | null }>`SELECT revoked_at, expires_at FROM api_keys WHERE id = ${id}`.execute(api.database.db)).rows[0]!;

describe('API keys under concurrent operator writes', () => {
  it('a revoke racing rotations: the revoked key stays revoked and answers 401', async () => {
    const company = await api.createCompany({ company_rpm: 100_000 });
    for (let round = 0; round < 6; round += 1) {
      const created = await request(api.app).post(`/admin/v1/companies/${company.id}/api-keys`).set(api.adminAuth).send({ name: `k${round}`, scopes: ['*'], mode: 'test', rpm: 10_000 });
      expect(created.status).toBe(201);
      const { id, key } = created.body.data as { id: string; key: string };
      const rotate = () => request(api.app).post(`/admin/v1/api-keys/${id}/rotate`).set(api.adminAuth).send({ grace_seconds: 3600 });
      const answers = await Promise.all([rotate(), rotate(), request(api.app).delete(`/admin/v1/api-keys/${id}`).set(api.adminAuth), rotate(), rotate()]);
      for (const a of answers) expect([200, 201, 404]).toContain(a.status);
      expect(answers[2]!.status).toBe(200);
      expect((await keyRow(id)).revoked_at).not.toBeNull();
      expect((await request(api.app).get('/v1/limits').set({ Authorization: `Bearer ${key}` })).status).toBe(401);
    }
  });

  it('ten rotations of one key at once: every new key works, the old one keeps the earliest expiry', async () => {
    const company = await api.createCompany({ company_rpm: 100_000 });
    const created = (await request(api.app).post(`/admin/v1/companies/${company.id}/api-keys`).set(api.adminAuth).send({ name: 'k', scopes: ['*'], mode: 'test', rpm: 10_000 })).body.data;
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => request(api.app).post(`/admin/v1/api-keys/${created.id}/rotate`).set(api.adminAuth).send({ grace_seconds: 600 + 60 * i })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array<number>(10).fill(201));
    const row = await keyRow(created.id);
    // Each rotation only ever shortens the grace: the shortest asked for (600 s) is the one that stays.
    const started = Math.min(...answers.map((a) => Date.parse(a.body.data.created_at)));
    expect(row.expires_at!.getTime()).toBeLessThanOrEqual(started + 600_000 + 5_000);
    for (const a of answers) expect((await request(api.app).get('/v1/limits').set({ Authorization: `Bearer ${a.body.data.key}` })).status).toBe(200);
  });

  it('edits of different settings of one box at once: every change lands', async () => {
    const company = await api.createCompany({ company_rpm: 100_000 });
    const setor = await api.createSetor(company.id);
    for (let round = 0; round < 5; round += 1) {
      const patch = (body: Record<string, unknown>) => request(api.app).patch(`/admin/v1/setores/${setor.id}`).set(api.adminAuth).send(body);
      const answers = await Promise.all([
        patch({ nome: `Caixa ${round}` }),
        patch({ warming_daily_limit: 100 + round }),
        patch({ closing_message: `Tchau ${round}` }),
        patch({ reopen_window_minutes: 10 + round }),
      ]);
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
      const row = (await sql<{ nome: string; warming_daily_limit_override: number; closing_message: string; reopen_window_minutes: number }>`
        SELECT nome, warming_daily_limit_override, closing_message, reopen_window_minutes FROM setores WHERE id = ${setor.id}`.execute(api.database.db)).rows[0]!;
      expect(row).toEqual({ nome: `Caixa ${round}`, warming_daily_limit_override: 100 + round, closing_message: `Tchau ${round}`, reopen_window_minutes: 10 + round });
    }
  });
});
