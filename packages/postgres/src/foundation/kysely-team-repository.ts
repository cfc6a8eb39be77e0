import type { Page, PageRequest, Team, TeamRepository } from '@carteiro/core';
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../shared/database.js';
import { countCompanyRows } from '../shared/records.js';
import { readPage } from '../shared/read-page.js';
import { columnsOf, fieldsOf } from '../shared/row-fields.js';

type TeamRow = { id: string; company_id: string; nome: string; auto_assign: boolean; max_open_per_agent: number; setor_ids: string[]; created_at: Date };

function toTeam(row: TeamRow): Team {
  return fieldsOf(row, ['id', 'company_id', 'nome', 'setor_ids', 'auto_assign', 'max_open_per_agent', 'created_at']);
}

export class KyselyTeamRepository implements TeamRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(team: Team): Promise<void> {
    await this.db
      .insertInto('teams')
      .values(columnsOf(team, ['id', 'companyId', 'nome', 'autoAssign', 'maxOpenPerAgent', 'createdAt']))
      .execute();
    await this.insertSetores(team);
  }

  /** The team's setores, in its order. */
  private async insertSetores(team: Team): Promise<void> {
    if (team.setorIds.length > 0) {
      await this.db
        .insertInto('team_setores')
        .values(team.setorIds.map((setorId, position) => ({ team_id: team.id, setor_id: setorId, position })))
        .execute();
    }
  }

  private selectTeams(query: SelectQueryBuilder<Database, 'teams', object> = this.db.selectFrom('teams')) {
    return query
      .select(['teams.id', 'teams.company_id', 'teams.nome', 'teams.auto_assign', 'teams.max_open_per_agent', 'teams.created_at'])
      .select(
        sql<string[]>`coalesce((SELECT array_agg(ts.setor_id::text ORDER BY ts.position) FROM team_setores ts WHERE ts.team_id = teams.id), '{}')`.as(
          'setor_ids',
        ),
      );
  }

  async update(team: Team): Promise<void> {
    await this.db
      .updateTable('teams')
      .set({ nome: team.nome, auto_assign: team.autoAssign, max_open_per_agent: team.maxOpenPerAgent })
      .where('id', '=', team.id)
      .execute();
    await this.db.deleteFrom('team_setores').where('team_id', '=', team.id).execute();
    await this.insertSetores(team);
  }

  async findById(id: string): Promise<Team | null> {
    const row = await this.selectTeams().where('teams.id', '=', id).executeTakeFirst();
    return row ? toTeam(row) : null;
  }

  async count(companyId: string): Promise<number> {
    return countCompanyRows(this.db, 'teams', companyId);
  }

  async lockForAssignment(teamId: string): Promise<Team | null> {
    const locked = await this.db.selectFrom('teams').select('id').where('id', '=', teamId).forUpdate().executeTakeFirst();
    return locked ? this.findById(teamId) : null;
  }

  async findByIdInCompany(companyId: string, id: string): Promise<Team | null> {
    const row = await this.selectTeams().where('teams.id', '=', id).where('teams.company_id', '=', companyId).executeTakeFirst();
    return row ? toTeam(row) : null;
  }

  async listByCompany(companyId: string, page: PageRequest): Promise<Page<Team>> {
    const ofCompany = this.db.selectFrom('teams').where('teams.company_id', '=', companyId);
    return readPage(ofCompany, (q) => this.selectTeams(q).orderBy('teams.created_at').orderBy('teams.id'), page, (rows) => rows.map(toTeam));
  }
}
