import { describe, expect, it } from '@jest/globals';
import { AdminService } from '../admin/index.js';
import { createCompany } from '../companies/index.js';
import { createSetor, withInboxSettings, DEFAULT_SETOR_INBOX_SETTINGS } from '../setores/index.js';
import { ValidationError } from '../shared/errors.js';
import { MAX_TEAMS, createTeam, withTeamSettings } from '../teams/index.js';
import { SeededRandom, SequentialIds } from '../shared/testing/deterministic.js';
import { InMemoryUnitOfWork } from '../testing/in-memory-unit-of-work.js';
import { ManualClock } from '../shared/testing/manual-clock.js';
import { MAX_AGENTS, availabilityChanged, createAgent, isAssignable, updateAgent } from './agent.js';
import type { AgentStatusListener } from './agent-status-listener.js';
import { ManageAgents } from './manage-agents.js';
import { ManageTeams } from './manage-teams.js';

const t0 = new Date('2026-03-01T12:00:00.000Z');

async function world() {
  const uow = new InMemoryUnitOfWork();
  const clock = new ManualClock(t0);
  const ids = new SequentialIds();
  const told: string[] = [];
  const listener: AgentStatusListener = {
    async onAgentChanged(_companyId, agentId) {
      told.push(agentId);
    },
  };
  const company = createCompany('10000000-0000-4000-8000-000000000001', t0, { name: 'Acme' });
  const other = createCompany('10000000-0000-4000-8000-000000000002', t0, { name: 'Other' });
  await uow.repos.companies.insert(company);
  await uow.repos.companies.insert(other);
  const team = createTeam('30000000-0000-4000-8000-000000000001', company.id, t0, { nome: 'Vendas' });
  await uow.repos.teams.insert(team);
  return {
    uow,
    clock,
    told,
    company,
    other,
    team,
    agents: new ManageAgents(uow, uow.repos, ids, clock, [listener]),
    teams: new ManageTeams(uow, uow.repos, clock, [listener]),
    admin: new AdminService(uow, uow.repos, clock, ids, new SeededRandom()),
  };
}

describe('agent rules', () => {
  it('a new agent is active and offline unless told otherwise; names and emails are trimmed and checked', () => {
    expect(createAgent('a', 'c', t0, { name: ' Ana ', email: ' ana@example.com ' })).toMatchObject({ name: 'Ana', email: 'ana@example.com', status: 'offline', active: true, teamIds: [], lastAssignedAt: null });
    expect(() => createAgent('a', 'c', t0, { name: '', email: 'ana@example.com' })).toThrow(ValidationError);
    expect(() => createAgent('a', 'c', t0, { name: 'Ana', email: 'ana' })).toThrow(ValidationError);
    expect(() => createAgent('a', 'c', t0, { name: 'Ana', email: 'ana@example.com', status: 'busy' as never })).toThrow(ValidationError);
  });

  it('only an active, available agent is assignable; status, active and teams are availability changes', () => {
    const ana = createAgent('a', 'c', t0, { name: 'Ana', email: 'a@example.com', status: 'available' });
    expect(isAssignable(ana)).toBe(true);
    expect(isAssignable({ ...ana, active: false })).toBe(false);
    expect(isAssignable({ ...ana, status: 'away' })).toBe(false);
    expect(availabilityChanged(ana, updateAgent(ana, { name: 'Ana S.' }, t0))).toBe(false);
    expect(availabilityChanged(ana, updateAgent(ana, { status: 'away' }, t0))).toBe(true);
    expect(availabilityChanged(ana, updateAgent(ana, { active: false }, t0))).toBe(true);
    expect(availabilityChanged(ana, updateAgent(ana, { teamIds: ['t'] }, t0))).toBe(true);
  });

  it('teams default to no auto-assignment and 10 open tickets per agent; the cap is 1-1000', () => {
    const team = createTeam('t', 'c', t0, { nome: 'Time', setorIds: ['s', 's'] });
    expect(team).toMatchObject({ autoAssign: false, maxOpenPerAgent: 10, setorIds: ['s'] });
    expect(withTeamSettings(team, { autoAssign: true, maxOpenPerAgent: 1000 })).toMatchObject({ autoAssign: true, maxOpenPerAgent: 1000 });
    expect(() => withTeamSettings(team, { maxOpenPerAgent: 0 })).toThrow(ValidationError);
    expect(() => withTeamSettings(team, { maxOpenPerAgent: 1001 })).toThrow(ValidationError);
    expect(() => withTeamSettings(team, { nome: ' ' })).toThrow(ValidationError);
  });

  it('box ticket settings: defaults, partial changes, empty texts as null, ranges', () => {
    const setor = createSetor('s', 'c', t0, { nome: 'Caixa' });
    expect(setor.inbox).toEqual(DEFAULT_SETOR_INBOX_SETTINGS);
    const later = new Date(t0.getTime() + 60_000);
    const next = withInboxSettings(setor, { csatEnabled: true, closingMessage: '  ', reopenWindowMinutes: 10_080 }, later);
    expect(next).toMatchObject({ updatedAt: later, inbox: { ...DEFAULT_SETOR_INBOX_SETTINGS, csatEnabled: true, closingMessage: null, reopenWindowMinutes: 10_080 } });
    expect(withInboxSettings(next, { csatQuestion: 'Nota?' }, later).inbox).toMatchObject({ csatEnabled: true, csatQuestion: 'Nota?', reopenWindowMinutes: 10_080 });
    expect(() => withInboxSettings(setor, { reopenWindowMinutes: 10_081 }, later)).toThrow(ValidationError);
    expect(() => withInboxSettings(setor, { reopenWindowMinutes: -1 }, later)).toThrow(ValidationError);
    expect(() => withInboxSettings(setor, { closingMessage: 'x'.repeat(1025) }, later)).toThrow(ValidationError);
    expect(() => withInboxSettings(setor, { csatThanks: 'x'.repeat(1025) }, later)).toThrow(ValidationError);
  });
});

describe('ManageAgents', () => {
  it('tells the listeners after a change of availability, never for a repeat or a rename', async () => {
    const { agents, company, team, told } = await world();
    const ana = await agents.create(company.id, { name: 'Ana', email: 'ana@example.com', teamIds: [team.id], status: 'available' });
    expect(told).toEqual([ana.id]);
    const bia = await agents.create(company.id, { name: 'Bia', email: 'bia@example.com', teamIds: [team.id] });
    expect(told).toEqual([ana.id]);
    expect(await agents.setStatus(company.id, bia.id, 'available')).toMatchObject({ changed: true, agent: { status: 'available' } });
    expect(await agents.setStatus(company.id, bia.id, 'available')).toMatchObject({ changed: false });
    await agents.update(bia.id, { name: 'Beatriz' });
    expect(told).toEqual([ana.id, bia.id]);
    await agents.update(bia.id, { active: false });
    expect(told).toEqual([ana.id, bia.id, bia.id]);
  });

  it('keeps emails unique per company ignoring case, scopes by company and checks teams', async () => {
    const { agents, company, other, team } = await world();
    const ana = await agents.create(company.id, { name: 'Ana', email: 'ana@example.com' });
    await expect(agents.create(company.id, { name: 'A', email: 'ANA@example.com' })).rejects.toMatchObject({ code: 'CONFLICT', details: { agent_id: ana.id } });
    await expect(agents.create(other.id, { name: 'A', email: 'ana@example.com' })).resolves.toMatchObject({ companyId: other.id });
    await expect(agents.create(other.id, { name: 'B', email: 'b@example.com', teamIds: [team.id] })).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'team_ids' } });
    await expect(agents.setStatus(other.id, ana.id, 'away')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(agents.get(other.id, ana.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it(`keeps a company at ${MAX_AGENTS} agents (422 UNPROCESSABLE)`, async () => {
    const { uow, agents, company, other } = await world();
    for (let i = 0; i < MAX_AGENTS; i += 1) {
      await uow.repos.agents.insertUnique(createAgent(`a${i}`, company.id, t0, { name: `A${i}`, email: `a${i}@example.com` }));
    }
    await expect(agents.create(company.id, { name: 'X', email: 'x@example.com' })).rejects.toMatchObject({ code: 'UNPROCESSABLE', details: { limit: MAX_AGENTS } });
    await expect(agents.create(other.id, { name: 'X', email: 'x@example.com' })).resolves.toMatchObject({ name: 'X' });
  });
});

describe('ManageTeams', () => {
  it('replaces members and tells the listeners of available members that may now take tickets', async () => {
    const { agents, teams, company, team, told } = await world();
    const ana = await agents.create(company.id, { name: 'Ana', email: 'ana@example.com', status: 'available' });
    const bia = await agents.create(company.id, { name: 'Bia', email: 'bia@example.com' });
    told.length = 0;
    // Without auto-assignment nobody is told.
    const plain = await teams.update(team.id, { agentIds: [ana.id, bia.id] });
    expect(plain.members.map((m) => m.agentId)).toEqual([ana.id, bia.id]);
    expect(told).toEqual([]);
    // Turning it on wakes the available members; a higher cap too; a lower one does not.
    await teams.update(team.id, { autoAssign: true });
    expect(told).toEqual([ana.id]);
    await teams.update(team.id, { maxOpenPerAgent: 20 });
    expect(told).toEqual([ana.id, ana.id]);
    await teams.update(team.id, { maxOpenPerAgent: 5 });
    expect(told).toEqual([ana.id, ana.id]);
    const emptied = await teams.update(team.id, { agentIds: [] });
    expect(emptied.members).toEqual([]);
    expect((await agents.get(company.id, ana.id)).teamIds).toEqual([]);
  });

  it('refuses another company’s agents and boxes, and an unknown team', async () => {
    const { uow, agents, teams, other, team } = await world();
    const alien = await agents.create(other.id, { name: 'Alien', email: 'x@example.com' });
    await expect(teams.update(team.id, { agentIds: [alien.id] })).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: { agent_ids: [alien.id] } });
    const box = createSetor('20000000-0000-4000-8000-000000000009', other.id, t0, { nome: 'Alheia' });
    await uow.repos.setores.insert(box);
    await expect(teams.update(team.id, { setorIds: [box.id] })).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'setor_ids' } });
    await expect(teams.update('30000000-0000-4000-8000-000000000099', { autoAssign: true })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it(`keeps a company at ${MAX_TEAMS} teams (422 UNPROCESSABLE)`, async () => {
    const { uow, admin, company } = await world();
    for (let i = 1; i < MAX_TEAMS; i += 1) await uow.repos.teams.insert(createTeam(`t${i}`, company.id, t0, { nome: `T${i}` }));
    await expect(admin.createTeam(company.id, { nome: 'Uma a mais' })).rejects.toMatchObject({ code: 'UNPROCESSABLE', details: { limit: MAX_TEAMS } });
  });

  it('the setor’s default team must be a team of its company, and a closing message has known placeholders', async () => {
    const { uow, admin, company, other, team } = await world();
    const box = await admin.createSetor(company.id, { nome: 'Caixa' });
    const foreign = createTeam('30000000-0000-4000-8000-000000000077', other.id, t0, { nome: 'Alheio' });
    await uow.repos.teams.insert(foreign);
    await expect(admin.updateSetor(box.id, { inbox: { defaultTeamId: foreign.id } })).rejects.toMatchObject({ details: { field: 'default_team_id' } });
    await expect(admin.updateSetor(box.id, { inbox: { closingMessage: 'Tchau {{cliente}}' } })).rejects.toMatchObject({ details: { field: 'closing_message' } });
    const saved = await admin.updateSetor(box.id, { inbox: { defaultTeamId: team.id, closingMessage: 'Tchau {{primeiro_nome}}' } });
    expect((await uow.repos.setores.findById(box.id))?.inbox).toEqual(saved.inbox);
    expect(saved.inbox).toMatchObject({ defaultTeamId: team.id, closingMessage: 'Tchau {{primeiro_nome}}' });
  });
});
