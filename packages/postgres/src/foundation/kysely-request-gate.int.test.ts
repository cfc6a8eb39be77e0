import { afterAll, describe, expect, it } from '@jest/globals';
import { createCompany, type ApiKey } from '@carteiro/core';
import { describeRequestGateContract } from '@carteiro/core/testing';
import { KyselyRequestGate } from './kysely-request-gate.js';
import { kyselyRepositories } from '../kysely-unit-of-work.js';
import { createTestDatabase, type TestDatabase } from '../testing/test-database.js';

let database: TestDatabase | undefined;
afterAll(async () => database?.destroy());

const open = async () => (database ??= await createTestDatabase());

describeRequestGateContract('kysely', async () => {
  const { db } = await open();
  const counter = async (bucket: string, windowStart: Date) => {
    const row = await db.selectFrom('rate_limit_counters').select('count').where('bucket', '=', bucket).where('window_start', '=', windowStart).executeTakeFirst();
    return row?.count ?? 0;
  };
  return { gate: new KyselyRequestGate(db), counter, repos: kyselyRepositories(db) };
});

describe('kysely request gate across processes', () => {
  it('two gates on one database (two API processes) count into one counter without deadlocks', async () => {
    const { db } = await open();
    const repos = kyselyRepositories(db);
    const t0 = new Date('2026-03-01T12:00:10.000Z');
    const company = createCompany('30000000-0000-4000-8000-000000000001', t0, { name: 'Two', companyRpm: 10_000 });
    await repos.companies.insert(company);
    const keys: ApiKey[] = [];
    for (let i = 0; i < 4; i += 1) {
      const id = `30000000-0000-4000-8000-00000000001${i}`;
      const key: ApiKey = { id, companyId: company.id, name: 'k', prefix: 'ak_live_abcd', keyHash: `two-${id}`, scopes: ['*'], mode: 'live', rpm: 10_000, createdAt: t0, revokedAt: null, expiresAt: null };
      await repos.apiKeys.insert(key);
      keys.push(key);
    }
    const gates = [new KyselyRequestGate(db), new KyselyRequestGate(db)];
    const window0 = new Date('2026-03-01T12:00:00.000Z');
    const calls = Array.from({ length: 400 }, (_, i) => gates[i % 2]!.admit(keys[(i * 7) % 4]!.keyHash, t0, window0));
    const entries = await Promise.all(calls);
    const companyCounts = entries.map((e) => e!.counts!.company).sort((a, b) => a - b);
    expect(companyCounts).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));
    for (const key of keys) {
      const counts = entries.filter((e) => e!.apiKey.id === key.id).map((e) => e!.counts!.key).sort((a, b) => a - b);
      expect(counts).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    }
  });
});
