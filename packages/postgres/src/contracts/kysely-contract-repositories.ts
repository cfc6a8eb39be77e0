import type {
  Contract,
  ContractDelivery,
  ContractDocument,
  ContractFilter,
  ContractRepositories,
  ContractRepository,
  ContractSigner,
  ContractStatus,
  ContractTemplate,
  ContractTemplateRepository,
  Page,
  PageRequest,
  SigningEventLog,
  TemplateVariable,
} from '@carteiro/core';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../shared/database.js';
import { findCompanyRecord, findRecord, updateCompanyRow } from '../shared/records.js';
import { readPage } from '../shared/read-page.js';
import { columnsOf, fieldsOf } from '../shared/row-fields.js';
import type { ContractTemplatesTable, ContractsTable } from './contracts-tables.js';

const date = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));

interface StoredSigner extends Omit<ContractSigner, 'signedAt' | 'refusedAt'> {
  signedAt: string | null;
  refusedAt: string | null;
}

function toContract(row: Selectable<ContractsTable>): Contract {
  return {
    ...fieldsOf(row, ['id', 'company_id', 'title', 'client_id', 'opportunity_id', 'template_id', 'content', 'expires_in_days', 'provider', 'provider_ref']),
    status: row.status as ContractStatus,
    value: row.value_cents === null ? null : Number(row.value_cents),
    variables: row.variables as Record<string, string>,
    signers: (row.signers as StoredSigner[]).map((s) => ({ ...s, signedAt: date(s.signedAt), refusedAt: date(s.refusedAt) })),
    sentAt: date(row.sent_at),
    expiresAt: date(row.expires_at),
    signedAt: date(row.signed_at),
    refusedAt: date(row.refused_at),
    cancelledAt: date(row.cancelled_at),
    sendingSince: date(row.sending_since),
    document: (row.document as ContractDocument | null) ?? null,
    delivery: (row.delivery as ContractDelivery | null) ?? null,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

function contractRow(c: Contract) {
  return {
    ...columnsOf(c, [
      'id', 'companyId', 'title', 'status', 'clientId', 'opportunityId', 'templateId', 'content', 'expiresInDays', 'sentAt', 'expiresAt', 'signedAt', 'refusedAt', 'cancelledAt',
      'sendingSince', 'provider', 'providerRef', 'createdAt', 'updatedAt',
    ]),
    value_cents: c.value,
    variables: JSON.stringify(c.variables),
    signers: JSON.stringify(c.signers),
    document: c.document === null ? null : JSON.stringify(c.document),
    delivery: c.delivery === null ? null : JSON.stringify(c.delivery),
  };
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

export class KyselyContractRepository implements ContractRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(c: Contract) {
    await this.db.insertInto('contracts').values(contractRow(c)).execute();
  }

  async update(c: Contract) {
    await updateCompanyRow(this.db, 'contracts', contractRow(c));
  }

  async findById(companyId: string, id: string) {
    return findCompanyRecord(this.db, 'contracts', companyId, id, toContract);
  }

  async findAnyById(id: string) {
    return findRecord(this.db, 'contracts', id, toContract);
  }

  async findByIdForUpdate(companyId: string, id: string) {
    return findCompanyRecord(this.db, 'contracts', companyId, id, toContract, 'forUpdate');
  }

  async findByProviderRefForUpdate(provider: string, providerRef: string) {
    const row = await this.db.selectFrom('contracts').selectAll().where('provider', '=', provider).where('provider_ref', '=', providerRef).forUpdate().executeTakeFirst();
    return row ? toContract(row) : null;
  }

  async list(companyId: string, filter: ContractFilter, page: PageRequest): Promise<Page<Contract>> {
    let query = this.db.selectFrom('contracts').where('company_id', '=', companyId);
    if (filter.status) query = query.where('status', '=', filter.status);
    if (filter.clientId) query = query.where('client_id', '=', filter.clientId);
    if (filter.opportunityId) query = query.where('opportunity_id', '=', filter.opportunityId);
    if (filter.search) query = query.where('title', 'ilike', `%${escapeLike(filter.search)}%`);
    return readPage(query, (q) => q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'), page, (rows) => rows.map(toContract));
  }

  async countSentSince(companyId: string, since: Date) {
    const row = await this.db
      .selectFrom('contracts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_id', '=', companyId)
      .where('sent_at', '>=', since)
      .where(sql<string>`coalesce(delivery->>'mode', 'live')`, '<>', 'test')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async stuckSending(before: Date, limit: number) {
    const rows = await this.db
      .selectFrom('contracts')
      .selectAll()
      .where('status', '=', 'sending')
      .where('sending_since', '<', before)
      .orderBy('sending_since')
      .limit(limit)
      .execute();
    return rows.map(toContract);
  }

  async awaitingSignature(limit: number) {
    const rows = await this.db.selectFrom('contracts').selectAll().where('status', '=', 'sent').orderBy('updated_at').orderBy('id').limit(limit).execute();
    return rows.map(toContract);
  }
}

function toTemplate(row: Selectable<ContractTemplatesTable>): ContractTemplate {
  return {
    ...fieldsOf(row, ['id', 'company_id', 'name', 'description', 'body', 'active']),
    variables: row.variables as TemplateVariable[],
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

export class KyselyContractTemplateRepository implements ContractTemplateRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(t: ContractTemplate) {
    await this.db
      .insertInto('contract_templates')
      .values({ ...columnsOf(t, ['id', 'companyId', 'name', 'description', 'body', 'active', 'createdAt', 'updatedAt']), variables: JSON.stringify(t.variables) })
      .execute();
  }

  async update(t: ContractTemplate) {
    await this.db
      .updateTable('contract_templates')
      .set({ name: t.name, description: t.description, body: t.body, variables: JSON.stringify(t.variables), active: t.active, updated_at: t.updatedAt })
      .where('id', '=', t.id)
      .execute();
  }

  async findById(companyId: string, id: string) {
    return findCompanyRecord(this.db, 'contract_templates', companyId, id, toTemplate);
  }

  async findAnyById(id: string) {
    return findRecord(this.db, 'contract_templates', id, toTemplate);
  }

  async findAnyByIdForUpdate(id: string) {
    return findRecord(this.db, 'contract_templates', id, toTemplate, 'forUpdate');
  }

  async listByCompany(companyId: string, includeInactive: boolean) {
    let query = this.db.selectFrom('contract_templates').selectAll().where('company_id', '=', companyId);
    if (!includeInactive) query = query.where('active', '=', true);
    return (await query.orderBy('name').orderBy('id').execute()).map(toTemplate);
  }
}

export class KyselySigningEventLog implements SigningEventLog {
  constructor(private readonly db: Kysely<Database>) {}
  async recordOnce(provider: string, eventId: string, at: Date) {
    const inserted = await this.db
      .insertInto('signing_events')
      .values({ provider, event_id: eventId, received_at: at })
      .onConflict((oc) => oc.columns(['provider', 'event_id']).doNothing())
      .returning('event_id')
      .executeTakeFirst();
    return inserted !== undefined;
  }
}

/** The contracts area's Kysely repositories over one connection or transaction. */
export function kyselyContractRepositories(db: Kysely<Database>): ContractRepositories {
  return {
    contracts: new KyselyContractRepository(db),
    contractTemplates: new KyselyContractTemplateRepository(db),
    signingEvents: new KyselySigningEventLog(db),
  };
}
