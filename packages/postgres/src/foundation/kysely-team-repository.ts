import type { Page, PageRequest, Team, TeamRepository } from '@carteiro/core';
import { pageOffset, toPage } from '@carteiro/core';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../shared/database.js';

export class KyselyTeamRepository implements TeamRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(team: Team): Promise<void> {
    await this.db
      .insertInto('teams')
      .values({ id: team.id, company_id: team.companyId, nome: team.nome, created_at: team.createdAt })
      .execute();
    if (team.setorIds.length > 0) {
      await this.db
        .insertInto('team_setores')
        .values(team.setorIds.map((setorId, position) => ({ team_id: team.id, setor_id: setorId, position })))
        .execute();
    }
  }

  private selectTeams() {
    return this.db
      .selectFrom('teams')
      .select(['teams.id', 'teams.company_id', 'teams.nome', 'teams.created_at'])
      .select(
        sql<string[]>`coalesce((SELECT array_agg(ts.setor_id::text ORDER BY ts.position) FROM team_setores ts WHERE ts.team_id = teams.id), '{}')`.as(
          'setor_ids',
        ),
      );
  }

  async findByIdInCompany(companyId: string, id: string): Promise<Team | null> {
    const row = await this.selectTeams().where('teams.id', '=', id).where('teams.company_id', '=', companyId).executeTakeFirst();
    return row ? { id: row.id, companyId: row.company_id, nome: row.nome, setorIds: row.setor_ids, createdAt: row.created_at } : null;
  }

  async listByCompany(companyId: string, page: PageRequest): Promise<Page<Team>> {
    const [rows, total] = await Promise.all([
      this.selectTeams()
        .where('teams.company_id', '=', companyId)
        .orderBy('teams.created_at')
        .orderBy('teams.id')
        .limit(page.limit)
        .offset(pageOffset(page))
        .execute(),
      this.db
        .selectFrom('teams')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('company_id', '=', companyId)
        .executeTakeFirstOrThrow(),
    ]);
    return toPage(
      rows.map((row) => ({ id: row.id, companyId: row.company_id, nome: row.nome, setorIds: row.setor_ids, createdAt: row.created_at })),
      total.n,
      page,
    );
  }
}
