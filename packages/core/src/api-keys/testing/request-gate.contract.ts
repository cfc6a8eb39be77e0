import { describe, expect, it } from '@jest/globals';
import type { ApiKey } from '../index.js';
import type { RequestGate } from '../index.js';
import { createCompany, type Company } from '../../companies/index.js';
import type { Repositories } from '../../shared/unit-of-work.js';
import type { ApiKeyRepositories } from '../index.js';
import type { CompanyRepositories } from '../../companies/index.js';

/** What the request-gate contract needs: the gate, a read of its counters (bucket, window start), and repositories to seed. */
export interface RequestGateUnderTest {
  gate: RequestGate;
  counter(bucket: string, windowStart: Date): Promise<number>;
  repos: Repositories<ApiKeyRepositories & CompanyRepositories>;
}

let sequence = 0;
const uuid = () => `20000000-0000-4000-8000-${(sequence += 1).toString().padStart(12, '0')}`;
const t0 = new Date('2026-03-01T12:00:10.000Z');
const window0 = new Date('2026-03-01T12:00:00.000Z');

/**
 * The behaviour every implementation of the request gate must show: key lookup, activity at the
 * caller's `now`, and counting in the rate limiter's own buckets; run against the in-memory fake
 * and the PostgreSQL adapter alike.
 */
export function describeRequestGateContract(name: string, setup: () => Promise<RequestGateUnderTest>): void {
  describe(`request gate contract: ${name}`, () => {
    const seed = async (keys: Partial<ApiKey>[] = [{}], settings: { companyRpm?: number | null } = {}) => {
      const sut = await setup();
      const company: Company = createCompany(uuid(), t0, { name: 'Gate Ltda', companyRpm: settings.companyRpm ?? 500 });
      await sut.repos.companies.insert(company);
      const apiKeys: ApiKey[] = [];
      for (const overrides of keys) {
        const id = uuid();
        const key: ApiKey = {
          id,
          companyId: company.id,
          name: 'k',
          prefix: 'ak_test_abcd',
          keyHash: `hash-${id}`,
          scopes: ['campaigns:read'],
          mode: 'test',
          rpm: 120,
          createdAt: t0,
          revokedAt: null,
          expiresAt: null,
          ...overrides,
        };
        await sut.repos.apiKeys.insert(key);
        apiKeys.push(key);
      }
      return { ...sut, company, apiKeys };
    };

    it('answers null for an unknown hash', async () => {
      const { gate } = await seed();
      expect(await gate.admit('hash-nobody', t0, window0)).toBeNull();
    });

    it('returns the key and its company as stored, and counts the request for both', async () => {
      const { gate, company, apiKeys } = await seed();
      const key = apiKeys[0]!;
      expect(await gate.admit(key.keyHash, t0, window0)).toEqual({ apiKey: key, company, counts: { key: 1, company: 1 } });
      expect((await gate.admit(key.keyHash, t0, window0))?.counts).toEqual({ key: 2, company: 2 });
    });

    it('counts in the rate limiter buckets key:<id> and company:<id>, one window at a time', async () => {
      const { gate, counter, company, apiKeys } = await seed();
      const key = apiKeys[0]!;
      await gate.admit(key.keyHash, t0, window0);
      await gate.admit(key.keyHash, t0, window0);
      const counts = [await counter(`key:${key.id}`, window0), await counter(`company:${company.id}`, window0)];
      expect(counts).toEqual([2, 2]);
      const next = new Date(window0.getTime() + 60_000);
      expect((await gate.admit(key.keyHash, new Date(next.getTime() + 1), next))?.counts).toEqual({ key: 1, company: 1 });
    });

    it('shares the company counter between its keys', async () => {
      const { gate, apiKeys } = await seed([{}, {}]);
      await gate.admit(apiKeys[0]!.keyHash, t0, window0);
      expect((await gate.admit(apiKeys[1]!.keyHash, t0, window0))?.counts).toEqual({ key: 1, company: 2 });
    });

    it('counts nothing for a revoked key, which it still returns', async () => {
      const { gate, counter, apiKeys } = await seed([{ revokedAt: t0 }]);
      const key = apiKeys[0]!;
      expect(await gate.admit(key.keyHash, t0, window0)).toMatchObject({ apiKey: { id: key.id, revokedAt: t0 }, counts: null });
      expect(await counter(`key:${key.id}`, window0)).toBe(0);
    });

    it('treats a key as expired from its expiresAt on, at the caller-given now', async () => {
      const expiresAt = new Date(t0.getTime() + 1000);
      const { gate, apiKeys } = await seed([{ expiresAt }]);
      const key = apiKeys[0]!;
      expect((await gate.admit(key.keyHash, new Date(expiresAt.getTime() - 1), window0))?.counts).toEqual({ key: 1, company: 1 });
      expect((await gate.admit(key.keyHash, expiresAt, window0))?.counts).toBeNull();
    });

    it('gives each of many concurrent requests its own count, as if they came one by one', async () => {
      const { gate, apiKeys } = await seed([{}, {}, { revokedAt: t0 }]);
      const [a, b, revoked] = apiKeys as [ApiKey, ApiKey, ApiKey];
      const calls = Array.from({ length: 30 }, (_, i) => gate.admit([a, b, revoked][i % 3]!.keyHash, t0, window0));
      calls.push(gate.admit('hash-nobody', t0, window0));
      const entries = await Promise.all(calls);
      const counts = (key: ApiKey) => entries.filter((e) => e?.apiKey.id === key.id).map((e) => e!.counts);
      expect(counts(a).map((c) => c!.key).sort((x, y) => x - y)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
      expect(counts(b).map((c) => c!.key).sort((x, y) => x - y)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
      expect(counts(revoked)).toEqual(Array.from({ length: 10 }, () => null));
      const company = [...counts(a), ...counts(b)].map((c) => c!.company).sort((x, y) => x - y);
      expect(company).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(entries.at(-1)).toBeNull();
    });
  });
}
