import type { ChannelInstance, ChannelInstanceRepository, InstanceStatus } from '@carteiro/core';
import { type Kysely, type Selectable } from 'kysely';
import type { ChannelInstancesTable } from './channel-tables.js';
import type { Database } from '../shared/database.js';
import { findCompanyRecord } from '../shared/records.js';
import { rowByKey } from '../shared/grouped-statements.js';
import { columnsOf, fieldsOf } from '../shared/row-fields.js';

/** Every field of an instance: one column each. */
const FIELDS = ['id', 'companyId', 'setorId', 'status', 'phoneNumber', 'providerRef', 'proxyConfigured', 'qrRequestedAt', 'connectedAt', 'disconnectedAt', 'profileName', 'profilePictureUrl', 'createdAt', 'updatedAt'] as const;

function toInstance(row: Selectable<ChannelInstancesTable>): ChannelInstance {
  return {
    ...fieldsOf(row, ['id', 'company_id', 'setor_id', 'phone_number', 'provider_ref', 'proxy_configured', 'qr_requested_at', 'connected_at', 'disconnected_at', 'profile_name', 'profile_picture_url', 'created_at', 'updated_at']),
    status: row.status as InstanceStatus,
  };
}

function toRow(i: ChannelInstance): Selectable<ChannelInstancesTable> {
  return columnsOf(i, FIELDS);
}

export class KyselyChannelInstanceRepository implements ChannelInstanceRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(instance: ChannelInstance): Promise<void> {
    await this.db.insertInto('channel_instances').values(toRow(instance)).execute();
  }

  async update(instance: ChannelInstance): Promise<void> {
    const { id, ...rest } = toRow(instance);
    await this.db.updateTable('channel_instances').set(rest).where('id', '=', id).execute();
  }

  async findByIdInCompany(companyId: string, id: string): Promise<ChannelInstance | null> {
    return findCompanyRecord(this.db, 'channel_instances', companyId, id, toInstance);
  }

  async findBySetor(setorId: string): Promise<ChannelInstance | null> {
    const row = await rowByKey(this.db, 'channelInstances.findBySetor', 'channel_instances', 'setor_id', setorId);
    return row ? toInstance(row) : null;
  }

  async findBySetorForUpdate(setorId: string): Promise<ChannelInstance | null> {
    const row = await this.db.selectFrom('channel_instances').selectAll().where('setor_id', '=', setorId).forUpdate().executeTakeFirst();
    return row ? toInstance(row) : null;
  }

  async listByCompany(companyId: string): Promise<ChannelInstance[]> {
    const rows = await this.db
      .selectFrom('channel_instances')
      .selectAll()
      .where('company_id', '=', companyId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toInstance);
  }

  async connectedSetorIds(companyId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('channel_instances as i')
      .innerJoin('setores as s', 's.id', 'i.setor_id')
      .select('i.setor_id')
      .where('i.company_id', '=', companyId)
      .where('i.status', '=', 'connected')
      .orderBy('s.created_at')
      .orderBy('s.id')
      .execute();
    return rows.map((r) => r.setor_id);
  }

  async all(): Promise<ChannelInstance[]> {
    const rows = await this.db.selectFrom('channel_instances').selectAll().orderBy('created_at').execute();
    return rows.map(toInstance);
  }
}
