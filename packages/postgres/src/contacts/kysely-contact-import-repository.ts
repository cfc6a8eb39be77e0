import type { ContactImport, ContactImportMode, ContactImportRepository, ContactImportStatus, PreparedImportRow } from '@carteiro/core';
import { isUuid } from '@carteiro/core';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../shared/database.js';
import type { ContactImportsTable } from './contacts-tables.js';

function toImport(row: Selectable<ContactImportsTable>): ContactImport {
  return {
    id: row.id,
    companyId: row.company_id,
    status: row.status as ContactImportStatus,
    mode: row.mode as ContactImportMode,
    total: row.total,
    processed: row.processed,
    created: row.created,
    updated: row.updated,
    skipped: row.skipped,
    failed: row.failed,
    errors: row.errors,
    batches: row.batches,
    nextBatch: row.next_batch,
    error: row.error,
    leaseUntil: row.lease_until,
    stalledClaims: row.stalled_claims,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export class KyselyContactImportRepository implements ContactImportRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(job: ContactImport, batches: readonly (readonly PreparedImportRow[])[]): Promise<void> {
    await this.db
      .insertInto('contact_imports')
      .values({
        id: job.id,
        company_id: job.companyId,
        status: job.status,
        mode: job.mode,
        total: job.total,
        processed: job.processed,
        created: job.created,
        updated: job.updated,
        skipped: job.skipped,
        failed: job.failed,
        errors: JSON.stringify(job.errors),
        batches: job.batches,
        next_batch: job.nextBatch,
        error: job.error ? JSON.stringify(job.error) : null,
        lease_until: job.leaseUntil,
        stalled_claims: job.stalledClaims,
        started_at: job.startedAt,
        finished_at: job.finishedAt,
        created_at: job.createdAt,
        updated_at: job.updatedAt,
      })
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
    const row = await this.db.selectFrom('contact_imports').selectAll().where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst();
    return row ? toImport(row) : null;
  }

  async findByIdForUpdate(id: string): Promise<ContactImport | null> {
    if (!isUuid(id)) return null;
    const row = await this.db.selectFrom('contact_imports').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    return row ? toImport(row) : null;
  }

  async save(job: ContactImport): Promise<void> {
    await this.db
      .updateTable('contact_imports')
      .set({
        status: job.status,
        processed: job.processed,
        created: job.created,
        updated: job.updated,
        skipped: job.skipped,
        failed: job.failed,
        errors: JSON.stringify(job.errors),
        next_batch: job.nextBatch,
        error: job.error ? JSON.stringify(job.error) : null,
        lease_until: job.leaseUntil,
        stalled_claims: job.stalledClaims,
        started_at: job.startedAt,
        finished_at: job.finishedAt,
        updated_at: job.updatedAt,
      })
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
