import type { ChannelType, Page, PageRequest, Setor, SetorRepository } from '@carteiro/core';
import { pageOffset, toPage } from '@carteiro/core';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../shared/database.js';
import type { SetoresTable } from './foundation-tables.js';

function toSetor(row: Selectable<SetoresTable>): Setor {
  return {
    id: row.id,
    companyId: row.company_id,
    nome: row.nome,
    channelType: row.channel_type as ChannelType,
    official: row.official,
    warmingDailyLimitOverride: row.warming_daily_limit_override,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export class KyselySetorRepository implements SetorRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(setor: Setor): Promise<void> {
    await this.db
      .insertInto('setores')
      .values({
        id: setor.id,
        company_id: setor.companyId,
        nome: setor.nome,
        channel_type: setor.channelType,
        official: JSON.stringify(setor.official),
        warming_daily_limit_override: setor.warmingDailyLimitOverride,
        created_at: setor.createdAt,
        updated_at: setor.updatedAt,
      })
      .execute();
  }

  async update(setor: Setor): Promise<void> {
    await this.db
      .updateTable('setores')
      .set({
        nome: setor.nome,
        official: JSON.stringify(setor.official),
        warming_daily_limit_override: setor.warmingDailyLimitOverride,
        updated_at: setor.updatedAt,
      })
      .where('id', '=', setor.id)
      .execute();
  }

  async findById(id: string): Promise<Setor | null> {
    const row = await this.db.selectFrom('setores').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toSetor(row) : null;
  }

  async findByIdInCompany(companyId: string, id: string): Promise<Setor | null> {
    const row = await this.db
      .selectFrom('setores')
      .selectAll()
      .where('id', '=', id)
      .where('company_id', '=', companyId)
      .executeTakeFirst();
    return row ? toSetor(row) : null;
  }

  async listByCompany(companyId: string, page: PageRequest): Promise<Page<Setor>> {
    const [rows, total] = await Promise.all([
      this.db
        .selectFrom('setores')
        .selectAll()
        .where('company_id', '=', companyId)
        .orderBy('created_at')
        .orderBy('id')
        .limit(page.limit)
        .offset(pageOffset(page))
        .execute(),
      this.db
        .selectFrom('setores')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('company_id', '=', companyId)
        .executeTakeFirstOrThrow(),
    ]);
    return toPage(rows.map(toSetor), total.n, page);
  }

  async allOfCompany(companyId: string): Promise<Setor[]> {
    const rows = await this.db
      .selectFrom('setores')
      .selectAll()
      .where('company_id', '=', companyId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toSetor);
  }
}
