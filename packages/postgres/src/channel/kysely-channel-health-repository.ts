import type { ChannelHealthRepository, HealthCheckEntry, HealthState, InstanceHealth } from '@carteiro/core';
import type { Kysely, Selectable } from 'kysely';
import type { ChannelHealthHistoryTable, ChannelHealthTable } from './channel-tables.js';
import type { Database } from '../shared/database.js';
import { columnsOf, fieldsOf } from '../shared/row-fields.js';

/** The fields a health and a history entry both have, under the same names. */
const SHARED_COLUMNS = ['instance_id', 'company_id', 'setor_id', 'connected', 'responding', 'error'] as const;
const SHARED_FIELDS = ['instanceId', 'companyId', 'setorId', 'state', 'connected', 'responding', 'error'] as const;

function toHealth(row: Selectable<ChannelHealthTable>): InstanceHealth {
  return {
    ...fieldsOf(row, [...SHARED_COLUMNS, 'last_checked_at', 'last_ok_at', 'consecutive_failures']),
    state: row.state as HealthState,
  };
}

function toEntry(row: Selectable<ChannelHealthHistoryTable>): HealthCheckEntry {
  return { ...fieldsOf(row, [...SHARED_COLUMNS, 'checked_at']), state: row.state as HealthState };
}

export class KyselyChannelHealthRepository implements ChannelHealthRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async save(health: InstanceHealth): Promise<void> {
    const row = columnsOf(health, [...SHARED_FIELDS, 'lastCheckedAt', 'lastOkAt', 'consecutiveFailures']);
    const { instance_id: _id, ...changes } = row;
    await this.db.insertInto('channel_health').values(row).onConflict((oc) => oc.column('instance_id').doUpdateSet(changes)).execute();
  }

  async findByInstance(instanceId: string): Promise<InstanceHealth | null> {
    const row = await this.db.selectFrom('channel_health').selectAll().where('instance_id', '=', instanceId).executeTakeFirst();
    return row ? toHealth(row) : null;
  }

  async listByCompany(companyId: string): Promise<InstanceHealth[]> {
    const rows = await this.db.selectFrom('channel_health').selectAll().where('company_id', '=', companyId).orderBy('instance_id').execute();
    return rows.map(toHealth);
  }

  async appendHistory(entry: HealthCheckEntry): Promise<void> {
    await this.db
      .insertInto('channel_health_history')
      .values(columnsOf(entry, [...SHARED_FIELDS, 'checkedAt']))
      .execute();
  }

  async historyOfCompany(companyId: string, since: Date): Promise<HealthCheckEntry[]> {
    const rows = await this.db
      .selectFrom('channel_health_history')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('checked_at', '>=', since)
      .orderBy('checked_at')
      .orderBy('id')
      .execute();
    return rows.map(toEntry);
  }

  async purgeHistory(before: Date): Promise<number> {
    const result = await this.db.deleteFrom('channel_health_history').where('checked_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
