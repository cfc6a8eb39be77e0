import type { ContactImport, ContactImportMode, ContactImportRepository, ContactImportStatus, PreparedImportRow } from '@carteiro/core';
import { isUuid } from '@carteiro/core';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../shared/database.js';
import { findCompanyRecord, findRecord } from '../shared/records.js';
import { columnsOf, fieldsOf } from '../shared/row-fields.js';
import type { ContactImportsTable } from './contacts-tables.js';

/** The fields an import's every save writes, one column each (its JSON columns are written beside them). */
const SAVED_FIELDS = ['status', 'processed', 'created', 'updated', 'skipped', 'failed', 'nextBatch', 'leaseUntil', 'stalledClaims', 'startedAt', 'finishedAt', 'updatedAt'] as const;

/** The JSON columns of an import as they are written. */
function jsonColumns(job: ContactImport) {
  return { errors: JSON.stringify(job.errors), error: job.error ? JSON.stringify(job.error) : null };
}

function toImport(row: Selectable<ContactImportsTable>): ContactImport {
  return {
    ...fieldsOf(row, ['id', 'company_id', 'total', 'processed', 'created', 'updated', 'skipped', 'failed', 'errors', 'batches', 'next_batch', 'error', 'lease_until', 'stalled_claims', 'started_at', 'finished_at', 'created_at', 'updated_at']),
    status: row.status as ContactImportStatus,
    mode: row.mode as ContactImportMode,
  };
}

export class KyselyContactImportRepository implements ContactImportRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(job: ContactImport, batches: readonly (readonly PreparedImportRow[])[]): Promise<void> {
    await this.db
      .insertInto('contact_imports')
      .values({ ...columnsOf(job, ['id', 'companyId', 'mode', 'total', 'batches', 'createdAt', ...SAVED_FIELDS]), ...jsonColumns(job) })
      .execute();
    if (batches.length > 0) {
      await this.db
        .insertInto('contact_import_batches')
        .values(batches.map((rows, batch) => ({ import_id: job.id, batch, rows: JSON.stringify(rows) })))
        .execute();
    }
  }

  async findById(companyId: string, id: string): Promise<ContactImport | null> {
    if (!isUuid(id)) return null;
    return findCompanyRecord(this.db, 'contact_imports', companyId, id, toImport);
  }

  async findByIdForUpdate(id: string): Promise<ContactImport | null> {
    if (!isUuid(id)) return null;
    return findRecord(this.db, 'contact_imports', id, toImport, 'forUpdate');
  }

  async save(job: ContactImport): Promise<void> {
    await this.db
      .updateTable('contact_imports')
      .set({ ...columnsOf(job, SAVED_FIELDS), ...jsonColumns(job) })
      .where('id', '=', job.id)
      .execute();
  }

  async loadBatch(importId: string, batch: number): Promise<PreparedImportRow[]> {
    const row = await this.db.selectFrom('contact_import_batches').select('rows').where('import_id', '=', importId).where('batch', '=', batch).executeTakeFirst();
    return (row?.rows ?? []) as PreparedImportRow[];
  }

  async lockAndCountActive(companyId: string): Promise<number> {
    // One lock per company for import creation: the count below cannot be raced.
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`contact-imports:${companyId}`}, 0))`.execute(this.db);
    const row = await this.db
      .selectFrom('contact_imports')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('company_id', '=', companyId)
      .where('status', 'in', ['queued', 'running'])
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async listStale(now: Date, queuedBefore: Date): Promise<string[]> {
    const rows = await this.db
      .selectFrom('contact_imports')
      .select('id')
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'running'), eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)])]),
          eb.and([eb('status', '=', 'queued'), eb('created_at', '<', queuedBefore)]),
        ]),
      )
      .execute();
    return rows.map((r) => r.id);
  }
}
