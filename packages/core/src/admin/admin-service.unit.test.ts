import { describe, expect, it } from '@jest/globals';
import { AuthenticateRequest } from '../api-keys/index.js';
import { InMemoryRequestGate, InMemoryUnitOfWork, ManualClock, SeededRandom, SequentialIds } from '../testing/index.js';
import { AdminService } from './admin-service.js';

function given() {
  const uow = new InMemoryUnitOfWork();
  const clock = new ManualClock('2026-05-10T15:00:00.000Z');
  const admin = new AdminService(uow, uow.repos, clock, new SequentialIds(), new SeededRandom(7));
  const request = new AuthenticateRequest(new InMemoryRequestGate(uow.store), clock);
  // Who a key authenticates as (the request gate also counts it; the limits here are far away).
  const authenticate = { execute: async (key: string) => (await request.execute(key)).principal };
  return { uow, clock, admin, authenticate };
}

describe('API keys over time', () => {
  it('given a rotated key, when the grace period passes, then only the new key authenticates', async () => {
    const { admin, authenticate, clock } = given();
    const company = await admin.createCompany({ name: 'Acme' });
    const first = await admin.createApiKey(company.id, { name: 'server', scopes: ['*'], mode: 'live' });

    const second = await admin.rotateApiKey(first.apiKey.id, 60);
    expect(second.apiKey).toMatchObject({ name: 'server', scopes: ['*'], mode: 'live', rpm: 60 });
    expect(second.key).not.toBe(first.key);
    await expect(authenticate.execute(first.key)).resolves.toMatchObject({ company: { id: company.id } });

    clock.advance(59_999);
    await expect(authenticate.execute(first.key)).resolves.toBeDefined();
    clock.advance(1);
    await expect(authenticate.execute(first.key)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(authenticate.execute(second.key)).resolves.toMatchObject({ apiKey: { id: second.apiKey.id } });
  });

  it('given a revoked key, then it is refused at once', async () => {
    const { admin, authenticate } = given();
    const company = await admin.createCompany({ name: 'Acme' });
    const issued = await admin.createApiKey(company.id, { name: 'k', scopes: ['credits:read'], mode: 'test' });
    await admin.revokeApiKey(issued.apiKey.id);
    await expect(authenticate.execute(issued.key)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('stores only the hash of a key, and generated keys differ', async () => {
    const { admin, uow } = given();
    const company = await admin.createCompany({ name: 'Acme' });
    const a = await admin.createApiKey(company.id, { name: 'a', scopes: ['*'], mode: 'test' });
    const b = await admin.createApiKey(company.id, { name: 'b', scopes: ['*'], mode: 'live' });
    expect(a.key).toMatch(/^ak_test_[0-9A-Za-z]{32}$/);
    expect(b.key).toMatch(/^ak_live_[0-9A-Za-z]{32}$/);
    expect(JSON.stringify([...uow.store.apiKeys.values()])).not.toContain(a.key);
  });

  it('refuses unknown scopes and keys for a missing company', async () => {
    const { admin } = given();
    const company = await admin.createCompany({ name: 'Acme' });
    await expect(admin.createApiKey(company.id, { name: 'k', scopes: ['nope'], mode: 'test' })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    await expect(admin.createApiKey('missing', { name: 'k', scopes: ['*'], mode: 'test' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('teams', () => {
  it('refuses a box of another company', async () => {
    const { admin } = given();
    const a = await admin.createCompany({ name: 'A' });
    const b = await admin.createCompany({ name: 'B' });
    const setorOfB = await admin.createSetor(b.id, { nome: 'B1' });
    await expect(admin.createTeam(a.id, { nome: 'T', setorIds: [setorOfB.id] })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });
});
