import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import request from 'supertest';
import { countOf, sortedStatuses, unthrottledTenant } from '../testing/races.js';
import { createTestApi, type TestApi } from '../testing/test-api.js';

/**
 * Concurrent writes of agents, teams and their members (conversations.md: 500 agents, 100 teams per company, emails
 * unique, `changed: false` for an unchanged status, `setor_ids`/`agent_ids` replace-all): one effect, no lost update,
 * no 500.
 */
let api: TestApi;
beforeAll(async () => {
  api = await createTestApi();
});
afterAll(() => api.close());
const tenant = () => unthrottledTenant(api);

async function agent(companyId: string, extra: Record<string, unknown> = {}) {
  const res = await request(api.app).post(`/admin/v1/companies/${companyId}/agents`).set(api.adminAuth).send({ name: 'Ana', email: `${randomUUID()}@example.com`, ...extra });
  expect(res.status).toBe(201);
  return res.body.data as { id: string };
}
async function team(companyId: string, nome = 'Vendas') {
  const res = await request(api.app).post(`/admin/v1/companies/${companyId}/teams`).set(api.adminAuth).send({ nome });
  expect(res.status).toBe(201);
  return res.body.data as { id: string };
}
const members = async (teamId: string) =>
  (await sql<{ agent_id: string }>`SELECT agent_id FROM team_members WHERE team_id = ${teamId} ORDER BY agent_id`.execute(api.database.db)).rows.map((r) => r.agent_id);

describe('agents and teams under concurrent writes', () => {
  it('ten changes to one status: one answers changed true, nine changed false', async () => {
    const t = await tenant();
    const a = await agent(t.company.id, { status: 'available' });
    const answers = await Promise.all(Array.from({ length: 10 }, () => request(api.app).patch(`/v1/agents/${a.id}/status`).set(t.auth).send({ status: 'away' })));
    expect(sortedStatuses(answers)).toEqual(Array<number>(10).fill(200));
    expect(answers.filter((x) => x.body.data.changed === true)).toHaveLength(1);
  });

  it('status changes racing team membership changes never undo the membership', async () => {
    const t = await tenant();
    const a = await agent(t.company.id, { status: 'available' });
    for (let round = 0; round < 6; round += 1) {
      const sales = await team(t.company.id, `Time ${round}`);
      const answers = await Promise.all([
        ...['away', 'available', 'away'].map((status) => request(api.app).patch(`/v1/agents/${a.id}/status`).set(t.auth).send({ status })),
        request(api.app).patch(`/admin/v1/teams/${sales.id}`).set(api.adminAuth).send({ agent_ids: [a.id] }),
        ...['available', 'away'].map((status) => request(api.app).patch(`/v1/agents/${a.id}/status`).set(t.auth).send({ status })),
      ]);
      expect(sortedStatuses(answers)).toEqual(Array<number>(6).fill(200));
      expect(await members(sales.id)).toEqual([a.id]);
    }
  });

  it('operator edits of an agent racing team membership changes never undo the membership', async () => {
    const t = await tenant();
    const a = await agent(t.company.id);
    for (let round = 0; round < 6; round += 1) {
      const sales = await team(t.company.id, `Equipe ${round}`);
      const answers = await Promise.all([
        ...[0, 1].map((i) => request(api.app).patch(`/admin/v1/agents/${a.id}`).set(api.adminAuth).send({ name: `Ana ${round}.${i}` })),
        request(api.app).patch(`/admin/v1/teams/${sales.id}`).set(api.adminAuth).send({ agent_ids: [a.id] }),
        ...[2, 3].map((i) => request(api.app).patch(`/admin/v1/agents/${a.id}`).set(api.adminAuth).send({ name: `Ana ${round}.${i}` })),
      ]);
      expect(sortedStatuses(answers)).toEqual(Array<number>(5).fill(200));
      expect(await members(sales.id)).toEqual([a.id]);
    }
  });

  it('agents joining teams while the teams replace their members: memberships are whole, never a 500', async () => {
    const t = await tenant();
    const agents = await Promise.all(Array.from({ length: 4 }, () => agent(t.company.id)));
    // Several rounds: the agents' and the teams' membership writes meet only when they overlap in time.
    for (let round = 0; round < 6; round += 1) {
      const teams = await Promise.all([team(t.company.id, `A${round}`), team(t.company.id, `B${round}`)]);
      const answers = await Promise.all([
        ...teams.map((x, i) => request(api.app).patch(`/admin/v1/teams/${x.id}`).set(api.adminAuth).send({ agent_ids: agents.slice(i, i + 3).map((g) => g.id) })),
        ...agents.map((g) => request(api.app).patch(`/admin/v1/agents/${g.id}`).set(api.adminAuth).send({ team_ids: teams.map((x) => x.id) })),
      ]);
      expect(sortedStatuses(answers)).toEqual(Array<number>(6).fill(200));
      expect(await countOf(api, sql`SELECT count(*) AS n FROM (SELECT team_id, agent_id FROM team_members GROUP BY 1, 2 HAVING count(*) > 1) d`)).toBe(0);
    }
  });

  it('fifteen email changes to one address: one 200, fourteen 409 CONFLICT', async () => {
    const t = await tenant();
    const agents = await Promise.all(Array.from({ length: 15 }, () => agent(t.company.id)));
    const answers = await Promise.all(agents.map((g, i) => request(api.app).patch(`/admin/v1/agents/${g.id}`).set(api.adminAuth).send({ email: i % 2 ? 'Mesmo@Example.com' : 'mesmo@example.com' })));
    expect(sortedStatuses(answers)).toEqual([200, ...Array<number>(14).fill(409)]);
    for (const a of answers.filter((x) => x.status === 409)) expect(a.body.error.code).toBe('CONFLICT');
  });

  it('fifteen creations at 495 of 500 agents and at 95 of 100 teams: five each, the others 422', async () => {
    const t = await tenant();
    await sql`INSERT INTO agents (id, company_id, name, email, status, active, created_at, updated_at)
              SELECT gen_random_uuid(), ${t.company.id}, 'Seed', 'seed' || i || '@example.com', 'offline', true, now(), now() FROM generate_series(1, 495) AS i`.execute(api.database.db);
    const agents = await Promise.all(Array.from({ length: 15 }, (_, i) => request(api.app).post(`/admin/v1/companies/${t.company.id}/agents`).set(api.adminAuth).send({ name: 'Nova', email: `nova${i}@example.com` })));
    expect(sortedStatuses(agents)).toEqual([...Array<number>(5).fill(201), ...Array<number>(10).fill(422)]);
    expect(await countOf(api, sql`SELECT count(*) AS n FROM agents WHERE company_id = ${t.company.id}`)).toBe(500);

    for (let i = 0; i < 95; i += 1) await team(t.company.id, `T${i}`);
    expect(await countOf(api, sql`SELECT count(*) AS n FROM teams WHERE company_id = ${t.company.id}`)).toBe(95);
    const teams = await Promise.all(Array.from({ length: 15 }, (_, i) => request(api.app).post(`/admin/v1/companies/${t.company.id}/teams`).set(api.adminAuth).send({ nome: `Nova ${i}` })));
    expect(sortedStatuses(teams)).toEqual([...Array<number>(5).fill(201), ...Array<number>(10).fill(422)]);
    expect(await countOf(api, sql`SELECT count(*) AS n FROM teams WHERE company_id = ${t.company.id}`)).toBe(100);
  });
});
