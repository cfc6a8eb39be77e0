import type { Company, CompanyRepository, Modality } from '@carteiro/core';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../shared/database.js';
import { rowByKey } from '../shared/grouped-statements.js';
import { columnsOf, fieldsOf } from '../shared/row-fields.js';
import type { CompaniesTable } from './foundation-tables.js';

/** A row of `companies` as the domain company. */
export function toCompany(row: Selectable<CompaniesTable>): Company {
  return {
    ...fieldsOf(row, ['id', 'name', 'plan_code', 'expires_at', 'avulso_balance', 'unlimited', 'bulk_messaging_enabled', 'multi_number_enabled', 'daily_limit', 'concurrent_campaigns_limit', 'company_rpm', 'timezone', 'default_country', 'created_at', 'updated_at']),
    modality: row.modality as Modality,
    safeHours: { start: row.safe_hours_start, end: row.safe_hours_end },
    // Absent rather than {} when the operator set none, as a new company has.
    ...(row.quota_overrides && Object.keys(row.quota_overrides).length > 0 ? { quotaOverrides: row.quota_overrides } : {}),
  };
}

function toRow(c: Company): Omit<Selectable<CompaniesTable>, 'quota_overrides'> & { quota_overrides: string } {
  return {
    ...columnsOf(c, ['id', 'name', 'planCode', 'modality', 'expiresAt', 'avulsoBalance', 'unlimited', 'bulkMessagingEnabled', 'multiNumberEnabled', 'dailyLimit', 'concurrentCampaignsLimit', 'companyRpm', 'timezone', 'defaultCountry', 'createdAt', 'updatedAt']),
    safe_hours_start: c.safeHours.start,
    safe_hours_end: c.safeHours.end,
    quota_overrides: JSON.stringify(c.quotaOverrides ?? {}),
  };
}

export class KyselyCompanyRepository implements CompanyRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(company: Company): Promise<void> {
    await this.db.insertInto('companies').values(toRow(company)).execute();
  }

  async update(company: Company): Promise<void> {
    const { id, ...rest } = toRow(company);
    await this.db.updateTable('companies').set(rest).where('id', '=', id).execute();
  }

  async findById(id: string): Promise<Company | null> {
    const row = await rowByKey(this.db, 'companies.findById', 'companies', 'id', id);
    return row ? toCompany(row) : null;
  }

  async findByIdForUpdate(id: string): Promise<Company | null> {
    // FOR NO KEY UPDATE: it serialises the company's lockers (limits, quotas, name checks) as FOR UPDATE would, but
    // does not block the FOR KEY SHARE lock every insert of a row referencing the company takes for its foreign key;
    // under FOR UPDATE a locker waiting on another row could deadlock with a writer inserting a contact, a message…
    const row = await this.db.selectFrom('companies').selectAll().where('id', '=', id).forNoKeyUpdate().executeTakeFirst();
    return row ? toCompany(row) : null;
  }

  async adjustBalance(id: string, delta: number): Promise<number | null> {
    const row = await this.db
      .updateTable('companies')
      .set({ avulso_balance: sql`avulso_balance + ${delta}` })
      .where('id', '=', id)
      .where(sql<boolean>`avulso_balance + ${delta} >= 0`)
      .returning('avulso_balance')
      .executeTakeFirst();
    return row ? row.avulso_balance : null;
  }
}
