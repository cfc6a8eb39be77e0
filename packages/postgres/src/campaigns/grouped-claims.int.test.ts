import { afterAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createCompany } from '@carteiro/core';
import { campaignFixture, messageFixture } from '@carteiro/core/testing';
import { sql } from 'kysely';
import { kyselyRepositories } from '../kysely-unit-of-work.js';
import { createTestDatabase, type TestDatabase } from '../testing/test-database.js';

let database: TestDatabase | undefined;
afterAll(async () => database?.destroy());

const t0 = new Date('2026-03-01T12:00:00.000Z');

/**
 * The claims the lanes of a process make at once share a statement (0025); a row another transaction holds must
 * stall only the lane that names it, not every lane of the group.
 */
describe('grouped claims', () => {
  it('given a message held by another transaction, then the other lanes claim at once and its lane claims it once released', async () => {
    database ??= await createTestDatabase({ poolSize: 8 });
    const repos = kyselyRepositories(database.db);
    const company = createCompany(randomUUID(), t0, { name: 'Acme' });
    await repos.companies.insert(company);
    const setores = [randomUUID(), randomUUID(), randomUUID()];
    const campaign = campaignFixture({ id: randomUUID(), companyId: company.id, status: 'processando', setorIds: setores, createdAt: t0, updatedAt: t0 });
    await repos.campaigns.insert(campaign);
    const messages = setores.map((setorId, i) =>
      messageFixture({ id: randomUUID(), campaignId: campaign.id, companyId: company.id, seq: i, phone: `+551199000000${i}`, assignedSetorId: setorId, setorId, createdAt: t0, updatedAt: t0 }),
    );
    await repos.campaigns.insertMessages(messages);

    // Another transaction (a campaign's contacts being linked) holds the first lane's message.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const holder = database.db.transaction().execute(async (tx) => {
      await sql`UPDATE campaign_messages SET name = 'Ana' WHERE id = ${messages[0]!.id}::uuid`.execute(tx);
      holding();
      await released;
    });
    await held;

    const at = new Date(t0.getTime() + 1_000);
    const claims = messages.map((m, i) => repos.campaigns.claimListed(setores[i]!, [m.id], `lane-${i}`, at));
    // The free lanes are answered while the held row is still held.
    const free = await Promise.all(claims.slice(1));
    expect(free.map((c) => c.map((m) => [m.id, m.status, m.claimedBy]))).toEqual([
      [[messages[1]!.id, 'enviando', 'lane-1']],
      [[messages[2]!.id, 'enviando', 'lane-2']],
    ]);
    let firstDone = false;
    void claims[0]!.then(() => (firstDone = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(firstDone).toBe(false);
    release();
    await holder;
    expect((await claims[0]!).map((m) => [m.id, m.status, m.claimedBy, m.name])).toEqual([[messages[0]!.id, 'enviando', 'lane-0', 'Ana']]);
  });
});
