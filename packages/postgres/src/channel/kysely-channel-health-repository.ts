import type { ChannelHealthRepository, HealthCheckEntry, HealthState, InstanceHealth } from '@carteiro/core';
import type { Kysely, Selectable } from 'kysely';
import type { ChannelHealthHistoryTable, ChannelHealthTable } from './channel-tables.js';
import type { Database } from '../shared/database.js';

function toHealth(row: Selectable<ChannelHealthTable>): InstanceHealth {
  return {
    instanceId: row.instance_id,
    companyId: row.company_id,
    setorId: row.setor_id,
    state: row.state as HealthState,
    connected: row.connected,
    responding: row.responding,
    lastCheckedAt: row.last_checked_at,
    lastOkAt: row.last_ok_at,
    consecutiveFailures: row.consecutive_failures,
    error: row.error,
  };
}

function toEntry(row: Selectable<ChannelHealthHistoryTable>): HealthCheckEntry {
  return {
    instanceId: row.instance_id,
    companyId: row.company_id,
    setorId: row.setor_id,
    checkedAt: row.checked_at,
    state: row.state as HealthState,
    connected: row.connected,
    responding: row.responding,
    error: row.error,
  };
}

export class KyselyChannelHealthRepository implements ChannelHealthRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async save(health: InstanceHealth): Promise<void> {
    const row = {
      instance_id: health.instanceId,
      company_id: health.companyId,
      setor_id: health.setorId,
      state: health.state,
      connected: health.connected,
      responding: health.responding,
      last_checked_at: health.lastCheckedAt,
      last_ok_at: health.lastOkAt,
      consecutive_failures: health.consecutiveFailures,
      error: health.error,
    };
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
      .values({
        instance_id: entry.instanceId,
        company_id: entry.companyId,
        setor_id: entry.setorId,
        checked_at: entry.checkedAt,
        state: entry.state,
        connected: entry.connected,
        responding: entry.responding,
        error: entry.error,
      })
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
