import type { ChannelInstance, ChannelInstanceRepository, InstanceStatus } from '@carteiro/core';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { ChannelInstancesTable } from './channel-tables.js';
import type { Database } from '../shared/database.js';
import { groupedById } from '../shared/grouped-statements.js';

function toInstance(row: Selectable<ChannelInstancesTable>): ChannelInstance {
  return {
    id: row.id,
    companyId: row.company_id,
    setorId: row.setor_id,
    status: row.status as InstanceStatus,
    phoneNumber: row.phone_number,
    providerRef: row.provider_ref,
    proxyConfigured: row.proxy_configured,
    qrRequestedAt: row.qr_requested_at,
    connectedAt: row.connected_at,
    disconnectedAt: row.disconnected_at,
    profileName: row.profile_name,
    profilePictureUrl: row.profile_picture_url,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toRow(i: ChannelInstance): Selectable<ChannelInstancesTable> {
  return {
    id: i.id,
    company_id: i.companyId,
    setor_id: i.setorId,
    status: i.status,
    phone_number: i.phoneNumber,
    provider_ref: i.providerRef,
    proxy_configured: i.proxyConfigured,
    qr_requested_at: i.qrRequestedAt,
    connected_at: i.connectedAt,
    disconnected_at: i.disconnectedAt,
    profile_name: i.profileName,
    profile_picture_url: i.profilePictureUrl,
    created_at: i.createdAt,
    updated_at: i.updatedAt,
  };
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
    const row = await this.db
      .selectFrom('channel_instances')
      .selectAll()
      .where('id', '=', id)
      .where('company_id', '=', companyId)
      .executeTakeFirst();
    return row ? toInstance(row) : null;
  }

  async findBySetor(setorId: string): Promise<ChannelInstance | null> {
    if (!this.db.isTransaction) {
      // Outside a transaction (the dispatch lanes of a worker reading their context) the reads made at once share a statement.
      const db = this.db;
      const row = await groupedById(
        db,
        'channelInstances.findBySetor',
        (ids) => db.selectFrom('channel_instances').selectAll().where('setor_id', '=', sql<string>`ANY(${ids}::uuid[])`).execute(),
        (r) => r.setor_id,
      )(setorId);
      return row ? toInstance(row) : null;
    }
    const row = await this.db.selectFrom('channel_instances').selectAll().where('setor_id', '=', setorId).executeTakeFirst();
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
