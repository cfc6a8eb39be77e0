import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AdminService, ManageAgents, ManageQuickReplies, ManageTeams } from '@carteiro/core';
import request from 'supertest';
import { createTestApi, type TestApi } from '../../api/src/testing/test-api.js';
import { seedDemo } from './first-start.js';

let api: TestApi;
beforeAll(async () => {
  api = await createTestApi();
});
afterAll(() => api.close());

describe('the demo seed of a first start (conversations.md §10)', () => {
  it('seeds a company, key and connected box with an agent, an auto-assign team, a quick reply, CSAT and a closing message; once', async () => {
    const connected: string[] = [];
    const people = { agents: api.container.get(ManageAgents), teams: api.container.get(ManageTeams), quickReplies: api.container.get(ManageQuickReplies) };
    const demo = await seedDemo(api.database.db, api.container.get(AdminService), async (_companyId, setorId) => void connected.push(setorId), people);
    expect(demo).not.toBeNull();
    expect(connected).toEqual([demo!.setorId]);
    const auth = { Authorization: `Bearer ${demo!.apiKey}` };

    const agents = await request(api.app).get('/v1/agents').set(auth);
    expect(agents.body.data.items).toEqual([expect.objectContaining({ id: demo!.agentId, status: 'available', active: true, team_ids: [demo!.teamId] })]);
    const teams = await request(api.app).get('/v1/teams').set(auth);
    expect(teams.body.data.items).toEqual([
      expect.objectContaining({ id: demo!.teamId, setor_ids: [demo!.setorId], auto_assign: true, members: [expect.objectContaining({ agent_id: demo!.agentId })] }),
    ]);
    const replies = await request(api.app).get(`/v1/quick-replies?setor_id=${demo!.setorId}`).set(auth);
    expect(replies.body.data.items).toEqual([expect.objectContaining({ id: demo!.quickReplyId, shortcut: 'boas-vindas', placeholders: ['primeiro_nome', 'atendente', 'protocolo'] })]);
    const box = await request(api.app).get(`/admin/v1/setores/${demo!.setorId}`).set(api.adminAuth);
    expect(box.body.data).toMatchObject({
      csat_enabled: true,
      csat_question: expect.any(String),
      csat_thanks: expect.any(String),
      closing_message: expect.stringContaining('{{protocolo}}'),
      default_team_id: demo!.teamId,
    });

    // Not on a database that has companies.
    expect(await seedDemo(api.database.db, api.container.get(AdminService), async () => undefined, people)).toBeNull();
  });
});
