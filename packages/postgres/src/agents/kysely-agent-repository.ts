import type { Agent, AgentFilters, AgentRepository, AgentStatus, Page, PageRequest, TeamMember } from '@carteiro/core';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../shared/database.js';
import { countCompanyRows } from '../shared/records.js';
import { readPage } from '../shared/read-page.js';
import { columnsOf, fieldsOf } from '../shared/row-fields.js';
import type { AgentsTable } from './agents-tables.js';

type AgentRow = Selectable<AgentsTable> & { team_ids: string[] };

function toAgent(row: AgentRow): Agent {
  return {
    ...fieldsOf(row, ['id', 'company_id', 'name', 'email', 'active', 'team_ids', 'last_assigned_at', 'created_at', 'updated_at']),
    status: row.status as AgentStatus,
  };
}

export class KyselyAgentRepository implements AgentRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private selectAgents() {
    return this.db
      .selectFrom('agents')
      .selectAll('agents')
      .select(
        sql<string[]>`coalesce((SELECT array_agg(tm.team_id::text ORDER BY tm.created_at, tm.team_id) FROM team_members tm WHERE tm.agent_id = agents.id), '{}')`.as('team_ids'),
      );
  }

  private async emailHolder(companyId: string, email: string): Promise<Agent | null> {
    const row = await this.selectAgents()
      .where('agents.company_id', '=', companyId)
      .where(sql<boolean>`lower(agents.email) = lower(${email})`)
      .executeTakeFirst();
    return row ? toAgent(row) : null;
  }

  private async writeMemberships(agent: Agent): Promise<void> {
    await this.db
      .deleteFrom('team_members')
      .where('agent_id', '=', agent.id)
      .$if(agent.teamIds.length > 0, (q) => q.where('team_id', 'not in', agent.teamIds))
      .execute();
    if (agent.teamIds.length > 0) {
      await this.db
        .insertInto('team_members')
        .values(agent.teamIds.map((teamId) => ({ team_id: teamId, agent_id: agent.id, company_id: agent.companyId, created_at: agent.updatedAt })))
        .onConflict((oc) => oc.columns(['team_id', 'agent_id']).doNothing())
        .execute();
    }
  }

  async insertUnique(agent: Agent): Promise<Agent | null> {
    const inserted = await this.db
      .insertInto('agents')
      .values(columnsOf(agent, ['id', 'companyId', 'name', 'email', 'status', 'active', 'lastAssignedAt', 'createdAt', 'updatedAt']))
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) return this.emailHolder(agent.companyId, agent.email);
    await this.writeMemberships(agent);
    return null;
  }

  async update(agent: Agent, { teams = true }: { teams?: boolean } = {}): Promise<Agent | null> {
    const holder = await this.emailHolder(agent.companyId, agent.email);
    if (holder && holder.id !== agent.id) return holder;
    await this.db
      .updateTable('agents')
      .set({ name: agent.name, email: agent.email, status: agent.status, active: agent.active, updated_at: agent.updatedAt })
      .where('id', '=', agent.id)
      .where('company_id', '=', agent.companyId)
      .execute();
    if (teams) await this.writeMemberships(agent);
    return null;
  }

  async setStatus(companyId: string, id: string, status: AgentStatus, at: Date): Promise<boolean> {
    // A concurrent change waits for this row and then reads the status again: it finds it equal and writes nothing.
    const changed = await this.db
      .updateTable('agents')
      .set({ status, updated_at: at })
      .where('id', '=', id)
      .where('company_id', '=', companyId)
      .where('status', '<>', status)
      .executeTakeFirst();
    return changed.numUpdatedRows > 0n;
  }

  async findById(companyId: string, id: string): Promise<Agent | null> {
    const row = await this.selectAgents().where('agents.id', '=', id).where('agents.company_id', '=', companyId).executeTakeFirst();
    return row ? toAgent(row) : null;
  }

  async findByIdForUpdate(companyId: string, id: string): Promise<Agent | null> {
    // NO KEY UPDATE, the lock the agent's own UPDATE takes (a share lock here deadlocked two assignments that both
    // then record last_assigned_at); it leaves the key-share locks of inserts referencing the agent alone.
    const row = await this.selectAgents().where('agents.id', '=', id).where('agents.company_id', '=', companyId).forNoKeyUpdate().executeTakeFirst();
    return row ? toAgent(row) : null;
  }

  async companyOf(id: string): Promise<string | null> {
    const row = await this.db.selectFrom('agents').select('company_id').where('id', '=', id).executeTakeFirst();
    return row?.company_id ?? null;
  }

  async findManyByIds(companyId: string, ids: readonly string[]): Promise<Agent[]> {
    if (ids.length === 0) return [];
    const rows = await this.selectAgents().where('agents.company_id', '=', companyId).where('agents.id', 'in', [...ids]).execute();
    return rows.map(toAgent);
  }

  async list(companyId: string, filters: AgentFilters, page: PageRequest): Promise<Page<Agent>> {
    let base = this.db.selectFrom('agents').where('agents.company_id', '=', companyId);
    if (filters.status !== undefined) base = base.where('agents.status', '=', filters.status);
    if (filters.active !== undefined) base = base.where('agents.active', '=', filters.active);
    if (filters.teamId !== undefined) {
      const teamId = filters.teamId;
      base = base.where(({ exists, selectFrom }) =>
        exists(selectFrom('team_members').select('team_members.agent_id').whereRef('team_members.agent_id', '=', 'agents.id').where('team_members.team_id', '=', teamId)),
      );
    }
    return readPage(
      base,
      (q) =>
        q
          .selectAll('agents')
          .select(
            sql<string[]>`coalesce((SELECT array_agg(tm.team_id::text ORDER BY tm.created_at, tm.team_id) FROM team_members tm WHERE tm.agent_id = agents.id), '{}')`.as('team_ids'),
          )
          .orderBy(sql`lower(agents.name) COLLATE "C"`)
          .orderBy('agents.id'),
      page,
      (rows) => rows.map(toAgent),
    );
  }

  async count(companyId: string): Promise<number> {
    return countCompanyRows(this.db, 'agents', companyId);
  }

  async listForTeam(teamId: string): Promise<Agent[]> {
    const rows = await this.selectAgents()
      .innerJoin('team_members', 'team_members.agent_id', 'agents.id')
      .where('team_members.team_id', '=', teamId)
      .orderBy(sql`lower(agents.name) COLLATE "C"`)
      .orderBy('agents.id')
      .execute();
    return rows.map(toAgent);
  }

  async membersOfTeams(teamIds: readonly string[]): Promise<TeamMember[]> {
    if (teamIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('team_members')
      .innerJoin('agents', 'agents.id', 'team_members.agent_id')
      .select(['team_members.team_id', 'agents.id', 'agents.name', 'agents.status', 'agents.active'])
      .where('team_members.team_id', 'in', [...teamIds])
      .orderBy('team_members.team_id')
      .orderBy(sql`lower(agents.name) COLLATE "C"`)
      .orderBy('agents.id')
      .execute();
    const order = new Map(teamIds.map((id, i) => [id, i]));
    return rows
      .map((row) => ({ teamId: row.team_id, agentId: row.id, name: row.name, status: row.status as AgentStatus, active: row.active }))
      .sort((a, b) => (order.get(a.teamId) ?? 0) - (order.get(b.teamId) ?? 0));
  }

  async setTeamMembers(companyId: string, teamId: string, agentIds: readonly string[], now: Date): Promise<void> {
    await this.db
      .deleteFrom('team_members')
      .where('team_id', '=', teamId)
      .$if(agentIds.length > 0, (q) => q.where('agent_id', 'not in', [...agentIds]))
      .execute();
    if (agentIds.length > 0) {
      await this.db
        .insertInto('team_members')
        .values(agentIds.map((agentId) => ({ team_id: teamId, agent_id: agentId, company_id: companyId, created_at: now })))
        .onConflict((oc) => oc.columns(['team_id', 'agent_id']).doNothing())
        .execute();
    }
  }

  async touchAssigned(agentId: string, at: Date): Promise<void> {
    await this.db.updateTable('agents').set({ last_assigned_at: at }).where('id', '=', agentId).execute();
  }

  async openTicketCounts(companyId: string, agentIds: readonly string[]): Promise<Map<string, number>> {
    if (agentIds.length === 0) return new Map();
    // The tickets table belongs to the tickets area (0015-tickets); `tickets_agent_open_idx` serves this.
    const { rows } = await sql<{ agent_id: string; n: string }>`
      SELECT agent_id, count(*) AS n FROM tickets
      WHERE company_id = ${companyId} AND status <> 'closed' AND agent_id = ANY(${[...agentIds]}::uuid[])
      GROUP BY agent_id
    `.execute(this.db);
    return new Map(rows.map((row) => [row.agent_id, Number(row.n)]));
  }
}
