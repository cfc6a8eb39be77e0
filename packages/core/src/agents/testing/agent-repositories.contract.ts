import { describe, expect, it } from '@jest/globals';
import { createSetor, withInboxSettings } from '../../setores/index.js';
import { createTeam } from '../../teams/index.js';
import { contractCases } from '../../companies/testing/index.js';
import type { RepositoriesUnderTest } from '../../shared/testing/index.js';
import type { AgentRepositories } from '../index.js';
import type { CompanyRepositories } from '../../companies/index.js';
import type { SetorRepositories } from '../../setores/index.js';
import type { TeamRepositories } from '../../teams/index.js';
import { createAgent, type AgentInput } from '../index.js';

/** The areas this suite reads and writes. */
type Areas = AgentRepositories & CompanyRepositories & SetorRepositories & TeamRepositories;

const t0 = new Date('2026-03-01T12:00:00.000Z');

const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);

/**
 * Agents (emails unique per company ignoring case, team memberships both ways, filters), the
 * teams' assignment settings and lock, and the boxes' ticket settings (0014-agents).
 */
export function describeAgentRepositoriesContract(name: string, setup: () => Promise<RepositoriesUnderTest<Areas>>): void {
  describe(`agent repositories contract: ${name}`, () => {
    const tenants = contractCases('a4', setup);
    const fresh = async () => {
      const { ids, company, other, ...sut } = await tenants();
      const agent = (companyId: string, input: AgentInput & { name: string; email: string }) => createAgent(ids.newId(), companyId, t0, input);
      const team = async (companyId: string, nome: string) => {
        const created = createTeam(ids.newId(), companyId, t0, { nome });
        await sut.repos.teams.insert(created);
        return created;
      };
      return { ...sut, ids, company, other, agent, team };
    };

    it('keeps emails unique per company ignoring case and reads agents with their teams', async () => {
      const { repos, company, other, agent, team } = await fresh();
      const sales = await team(company.id, 'Vendas');
      const ana = agent(company.id, { name: 'Ana', email: 'Ana@Acme.com', status: 'available', teamIds: [sales.id] });
      expect(await repos.agents.insertUnique(ana)).toBeNull();
      expect(await repos.agents.insertUnique(agent(company.id, { name: 'Outra', email: 'ana@acme.COM' }))).toEqual(ana);
      expect(await repos.agents.insertUnique(agent(other.id, { name: 'Ana', email: 'ana@acme.com' }))).toBeNull();
      expect(await repos.agents.findById(company.id, ana.id)).toEqual(ana);
      expect(await repos.agents.findById(other.id, ana.id)).toBeNull();
      expect(await repos.agents.companyOf(ana.id)).toBe(company.id);
      expect(await repos.agents.count(company.id)).toBe(1);
      expect((await repos.agents.findManyByIds(company.id, [ana.id, other.id])).map((a) => a.id)).toEqual([ana.id]);
    });

    it('updates fields and memberships (replace-all), refusing another agent’s email', async () => {
      const { repos, company, agent, team } = await fresh();
      const [a, b] = [await team(company.id, 'A'), await team(company.id, 'B')];
      const bia = agent(company.id, { name: 'Bia', email: 'bia@acme.com', teamIds: [a.id] });
      const caio = agent(company.id, { name: 'Caio', email: 'caio@acme.com' });
      await repos.agents.insertUnique(bia);
      await repos.agents.insertUnique(caio);
      expect(await repos.agents.update({ ...caio, email: 'BIA@acme.com' })).toEqual(bia);
      expect((await repos.agents.findById(company.id, caio.id))?.email).toBe('caio@acme.com');
      const moved = { ...bia, name: 'Beatriz', status: 'away' as const, active: false, teamIds: [b.id], updatedAt: at(1) };
      expect(await repos.agents.update(moved)).toBeNull();
      expect(await repos.agents.findById(company.id, bia.id)).toEqual(moved);
      expect(await repos.agents.update({ ...caio, email: 'Caio@acme.com', updatedAt: at(2) })).toBeNull();
      expect((await repos.agents.listForTeam(a.id)).map((x) => x.id)).toEqual([]);
      expect((await repos.agents.listForTeam(b.id)).map((x) => x.id)).toEqual([bia.id]);
    });

    it('leaves the memberships alone with teams: false, and sets a status only when it is another one', async () => {
      const { repos, uow, company, other, agent, team } = await fresh();
      const [a, b] = [await team(company.id, 'A'), await team(company.id, 'B')];
      const dani = agent(company.id, { name: 'Dani', email: 'dani@acme.com', status: 'offline', teamIds: [a.id] });
      await repos.agents.insertUnique(dani);
      await repos.agents.setTeamMembers(company.id, b.id, [dani.id], at(1));
      expect(await repos.agents.update({ ...dani, name: 'Daniela', updatedAt: at(2) }, { teams: false })).toBeNull();
      expect(await repos.agents.findById(company.id, dani.id)).toMatchObject({ name: 'Daniela', teamIds: [a.id, b.id] });
      expect(await repos.agents.setStatus(company.id, dani.id, 'away', at(3))).toBe(true);
      expect(await repos.agents.setStatus(company.id, dani.id, 'away', at(4))).toBe(false);
      expect(await repos.agents.setStatus(other.id, dani.id, 'available', at(4))).toBe(false);
      expect(await repos.agents.findById(company.id, dani.id)).toMatchObject({ name: 'Daniela', status: 'away', updatedAt: at(3), teamIds: [a.id, b.id] });
      const locked = await uow.transaction(async (tx) => [await tx.agents.findByIdForUpdate(company.id, dani.id), await tx.agents.findByIdForUpdate(other.id, dani.id)]);
      expect(locked).toEqual([await repos.agents.findById(company.id, dani.id), null]);
    });

    it('lists by name with team, status and active filters, paged', async () => {
      const { repos, company, other, agent, team } = await fresh();
      const support = await team(company.id, 'Suporte');
      const zoe = agent(company.id, { name: 'zoe', email: 'z@acme.com', status: 'available', teamIds: [support.id] });
      const ana = agent(company.id, { name: 'Ana', email: 'a@acme.com', status: 'away' });
      const bob = agent(company.id, { name: 'bob', email: 'b@acme.com', status: 'available', active: false, teamIds: [support.id] });
      for (const x of [zoe, ana, bob, agent(other.id, { name: 'Alien', email: 'x@other.com' })]) await repos.agents.insertUnique(x);
      const names = async (filters: Parameters<typeof repos.agents.list>[1], page = { page: 1, limit: 10 }) =>
        (await repos.agents.list(company.id, filters, page)).items.map((x) => x.name);
      expect(await names({})).toEqual(['Ana', 'bob', 'zoe']);
      expect(await names({ active: true })).toEqual(['Ana', 'zoe']);
      expect(await names({ status: 'available' })).toEqual(['bob', 'zoe']);
      expect(await names({ teamId: support.id, active: true })).toEqual(['zoe']);
      const second = await repos.agents.list(company.id, {}, { page: 2, limit: 2 });
      expect(second.items.map((x) => x.name)).toEqual(['zoe']);
      expect(second.total).toBe(3);
      expect(second.totalPages).toBe(2);
    });

    it('replaces a team’s members and shows members of several teams', async () => {
      const { repos, company, agent, team } = await fresh();
      const [a, b] = [await team(company.id, 'A'), await team(company.id, 'B')];
      const [x, y, z] = [
        agent(company.id, { name: 'X', email: 'x@acme.com', teamIds: [a.id, b.id] }),
        agent(company.id, { name: 'Y', email: 'y@acme.com', status: 'available' }),
        agent(company.id, { name: 'Z', email: 'z@acme.com' }),
      ];
      for (const each of [x, y, z]) await repos.agents.insertUnique(each);
      await repos.agents.setTeamMembers(company.id, a.id, [y.id, z.id], at(1));
      expect((await repos.agents.listForTeam(a.id)).map((m) => m.id)).toEqual([y.id, z.id]);
      expect((await repos.agents.findById(company.id, x.id))?.teamIds).toEqual([b.id]);
      expect((await repos.agents.findById(company.id, y.id))?.teamIds).toEqual([a.id]);
      expect(await repos.agents.membersOfTeams([b.id, a.id])).toEqual([
        { teamId: b.id, agentId: x.id, name: 'X', status: 'offline', active: true },
        { teamId: a.id, agentId: y.id, name: 'Y', status: 'available', active: true },
        { teamId: a.id, agentId: z.id, name: 'Z', status: 'offline', active: true },
      ]);
      await repos.agents.setTeamMembers(company.id, a.id, [], at(2));
      expect(await repos.agents.membersOfTeams([a.id])).toEqual([]);
    });

    it('records the last assignment and counts no open tickets for agents without any', async () => {
      const { repos, company, agent } = await fresh();
      const x = agent(company.id, { name: 'X', email: 'x@acme.com' });
      await repos.agents.insertUnique(x);
      await repos.agents.touchAssigned(x.id, at(5));
      expect((await repos.agents.findById(company.id, x.id))?.lastAssignedAt).toEqual(at(5));
      expect(await repos.agents.openTicketCounts(company.id, [x.id])).toEqual(new Map());
      expect(await repos.agents.openTicketCounts(company.id, [])).toEqual(new Map());
    });

    it('stores the teams’ assignment settings, counts them and locks one in a transaction', async () => {
      const { repos, uow, company, other, team, ids } = await fresh();
      const setor = createSetor(ids.newId(), company.id, t0, { nome: 'Caixa' });
      await repos.setores.insert(setor);
      const sales = await team(company.id, 'Vendas');
      expect(sales).toMatchObject({ autoAssign: false, maxOpenPerAgent: 10 });
      const changed = { ...sales, nome: 'Vendas 2', autoAssign: true, maxOpenPerAgent: 3, setorIds: [setor.id] };
      await repos.teams.update(changed);
      expect(await repos.teams.findById(sales.id)).toEqual(changed);
      expect(await repos.teams.findByIdInCompany(other.id, sales.id)).toBeNull();
      expect(await repos.teams.count(company.id)).toBe(1);
      expect(await repos.teams.count(other.id)).toBe(0);
      expect(await uow.transaction((tx) => tx.teams.lockForAssignment(sales.id))).toEqual(changed);
      expect(await uow.transaction((tx) => tx.teams.lockForAssignment(ids.newId()))).toBeNull();
    });

    it('stores the boxes’ ticket settings', async () => {
      const { repos, company, team, ids } = await fresh();
      const setor = createSetor(ids.newId(), company.id, t0, { nome: 'Caixa' });
      await repos.setores.insert(setor);
      expect((await repos.setores.findById(setor.id))?.inbox).toEqual({
        closingMessage: null,
        csatEnabled: false,
        csatQuestion: null,
        csatThanks: null,
        reopenWindowMinutes: 30,
        assistantEnabled: false,
        defaultTeamId: null,
      });
      const sales = await team(company.id, 'Vendas');
      const next = withInboxSettings(
        setor,
        { closingMessage: 'Tchau {{nome}}', csatEnabled: true, csatQuestion: 'Nota?', csatThanks: 'Valeu', reopenWindowMinutes: 0, assistantEnabled: true, defaultTeamId: sales.id },
        at(1),
      );
      await repos.setores.update(next);
      expect(await repos.setores.findByIdInCompany(company.id, setor.id)).toEqual(next);
    });
  });
}
