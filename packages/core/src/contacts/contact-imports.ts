import { systemActor, type DomainEvent } from '../shared/domain-event.js';
import type { Clock } from '../shared/clock.js';
import { transition } from '../shared/decider.js';
import { DomainError, NotFoundError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import { normalizePhone, phoneMatchKey } from '../phone/index.js';
import type { TagRepositories } from '../tags/index.js';
import { checkCustomFields, type ContactFieldDefinition } from './contact-field.js';
import {
  contactImportDecider,
  IMPORT_BATCH_SIZE,
  MAX_ACTIVE_IMPORTS,
  MAX_IMPORT_ROWS,
  newContactImport,
  type ContactImport,
  type ContactImportCommand,
  type ImportRowError,
  type PreparedImportRow,
} from './contact-import.js';
import { ContactQueues } from './contact-queues.js';
import type { ContactRepositories } from './contact-repositories.js';
import type { ContactImportMode } from './contact-repository.js';

/** One row as sent (JSON `rows[]`, or a CSV line mapped by its header). */
export interface ImportRowInput {
  phone?: unknown;
  name?: unknown;
  email?: unknown;
  custom_fields?: unknown;
  tag_ids?: unknown;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** CSV cells are text: numbers, booleans and multi-selects (`a;b`) are read into their types before the checks. */
function fromText(definitions: readonly ContactFieldDefinition[], values: Record<string, unknown>): Record<string, unknown> {
  const types = new Map(definitions.map((d) => [d.key, d.type]));
  return Object.fromEntries(
    Object.entries(values).map(([key, value]) => {
      if (typeof value !== 'string') return [key, value];
      switch (types.get(key)) {
        case 'number':
          return [key, value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value];
        case 'boolean':
          return [key, /^(true|1|sim|yes)$/i.test(value) ? true : /^(false|0|n[aã]o|no)$/i.test(value) ? false : value];
        case 'multi_select':
          return [key, value.split(/[;|]/).map((v) => v.trim()).filter(Boolean)];
        default:
          return [key, value];
      }
    }),
  );
}

/**
 * POST /v1/imports: checks every row now (phone, fields against the definitions, tags,
 * repeated match keys), stores them in batches of 500 and queues the job in the same
 * transaction. A third queued or running import of the company is refused.
 */
export class CreateContactImport {
  constructor(
    private readonly uow: UnitOfWork<ContactRepositories & TagRepositories>,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async execute(company: { id: string; defaultCountry?: string }, input: { rows: ImportRowInput[]; mode?: ContactImportMode; tagIds?: string[]; /** The rows came from CSV text: field values are read from text. */ fromText?: boolean }): Promise<ContactImport> {
    if (input.rows.length < 1 || input.rows.length > MAX_IMPORT_ROWS) {
      throw new DomainError('VALIDATION_ERROR', `An import has 1-${MAX_IMPORT_ROWS} rows`, { field: 'rows', total: input.rows.length });
    }
    return this.uow.transaction((repos) => this.run(repos, company, input));
  }

  /** The creation inside the caller's transaction (an Idempotency-Key's, for one). */
  async run(
    repos: Repositories<ContactRepositories & TagRepositories>,
    company: { id: string; defaultCountry?: string },
    input: { rows: ImportRowInput[]; mode?: ContactImportMode; tagIds?: string[]; fromText?: boolean },
  ): Promise<ContactImport> {
    if (input.rows.length < 1 || input.rows.length > MAX_IMPORT_ROWS) {
      throw new DomainError('VALIDATION_ERROR', `An import has 1-${MAX_IMPORT_ROWS} rows`, { field: 'rows', total: input.rows.length });
    }
    const globalTags = [...new Set(input.tagIds ?? [])];
    const now = this.clock.now();
    const active = await repos.contactImports.lockAndCountActive(company.id);
    if (active >= MAX_ACTIVE_IMPORTS) {
      throw new DomainError('CONCURRENT_LIMIT_EXCEEDED', `At most ${MAX_ACTIVE_IMPORTS} imports run at once`, { limit: MAX_ACTIVE_IMPORTS, active });
    }
    const definitions = await repos.contactFields.list(company.id);
    const rowTagIds = new Set<string>(globalTags);
    for (const row of input.rows) if (Array.isArray(row.tag_ids)) for (const t of row.tag_ids) if (typeof t === 'string') rowTagIds.add(t);
    const knownTags = new Set((await repos.tags.findManyByIds(company.id, [...rowTagIds])).map((t) => t.id));
    const unknownGlobal = globalTags.filter((t) => !knownTags.has(t));
    if (unknownGlobal.length > 0) throw new NotFoundError('Tag', { tag_ids: unknownGlobal });

    const seen = new Set<string>();
    const prepared: PreparedImportRow[] = input.rows.map((raw, index) => {
      const row = index + 1;
      const error = (field: string | null, code: string, message: string): PreparedImportRow => ({ row, error: { row, field, code, message } });
      let phone: string;
      try {
        phone = normalizePhone(raw.phone, 'phone', company.defaultCountry);
      } catch {
        return error('phone', 'INVALID_NUMBER', 'phone is not a valid phone number');
      }
      if (raw.name != null && (typeof raw.name !== 'string' || raw.name.length > 100)) return error('name', 'INVALID_VALUE', 'name must be a string of at most 100 characters');
      const email = typeof raw.email === 'string' && raw.email.trim() !== '' ? raw.email.trim() : null;
      if (raw.email != null && raw.email !== '' && (typeof raw.email !== 'string' || !email || email.length > 254 || !EMAIL.test(email))) {
        return error('email', 'INVALID_VALUE', 'email must be an email address');
      }
      let customFields: Record<string, unknown> = {};
      if (raw.custom_fields != null) {
        if (typeof raw.custom_fields !== 'object' || Array.isArray(raw.custom_fields)) return error('custom_fields', 'INVALID_VALUE', 'custom_fields must be an object');
        const given = raw.custom_fields as Record<string, unknown>;
        const checked = checkCustomFields(definitions, input.fromText ? fromText(definitions, given) : given);
        const problem = checked.problems[0];
        if (problem) return error(problem.field, problem.code, problem.message);
        customFields = Object.fromEntries(Object.entries(checked.values).filter(([, v]) => v !== null));
      }
      let tagIds: string[] = [...globalTags];
      if (raw.tag_ids != null) {
        if (!Array.isArray(raw.tag_ids) || raw.tag_ids.some((t) => typeof t !== 'string')) return error('tag_ids', 'INVALID_VALUE', 'tag_ids must be an array of ids');
        const unknown = (raw.tag_ids as string[]).filter((t) => !knownTags.has(t));
        if (unknown.length > 0) return error('tag_ids', 'TAG_NOT_FOUND', `unknown tags: ${unknown.join(', ')}`);
        tagIds = [...new Set([...tagIds, ...(raw.tag_ids as string[])])];
      }
      const key = phoneMatchKey(phone);
      if (seen.has(key)) return { row, duplicate: true };
      seen.add(key);
      const name = typeof raw.name === 'string' && raw.name.trim() !== '' ? raw.name.trim() : null;
      return { row, write: { phone, name, email, customFields, tagIds } };
    });
    const batches: PreparedImportRow[][] = [];
    for (let i = 0; i < prepared.length; i += IMPORT_BATCH_SIZE) batches.push(prepared.slice(i, i + IMPORT_BATCH_SIZE));
    const job = newContactImport({ id: this.ids.newId(), companyId: company.id, mode: input.mode ?? 'fill', total: prepared.length, batches: batches.length, at: now });
    await repos.contactImports.insert(job, batches);
    await repos.jobs.enqueue(ContactQueues.import, { importId: job.id }, { singletonKey: job.id });
    return job;
  }
}

/** GET /v1/imports/:id. */
export class ReadContactImport {
  constructor(private readonly repos: Repositories<ContactRepositories>) {}
  async execute(companyId: string, id: string): Promise<ContactImport> {
    const job = await this.repos.contactImports.findById(companyId, id);
    if (!job) throw new NotFoundError('Import');
    return job;
  }
}

/** What one run of an import job did. */
export type ImportRunOutcome = 'completed' | 'failed' | 'busy' | 'finished' | 'missing';

/**
 * The import job: claims the import (a lease other workers respect), then writes its batches in
 * turn, one transaction each — rows, counts from what the database reported, the next batch
 * number and the events commit together, so a worker killed mid-batch loses that batch's
 * transaction and the next run resumes after the last committed batch: every row once.
 */
export class RunContactImport {
  constructor(
    private readonly uow: UnitOfWork<ContactRepositories & TagRepositories>,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly leaseMs: number,
  ) {}

  private step(repos: Repositories<ContactRepositories>, job: ContactImport, command: ContactImportCommand): Promise<ContactImport> | ContactImport {
    const { state, events } = transition(contactImportDecider, job, command);
    return events.length > 0 ? repos.contactImports.save(state).then(() => state) : state;
  }

  private event(job: ContactImport, name: DomainEvent['event'], data: Record<string, unknown>, at: Date): DomainEvent {
    return { id: this.ids.newId(), event: name, companyId: job.companyId, setorId: null, occurredAt: at, data, actor: systemActor };
  }

  async execute(importId: string): Promise<ImportRunOutcome> {
    const claimed = await this.uow.transaction(async (repos) => {
      const job = await repos.contactImports.findByIdForUpdate(importId);
      if (!job) return 'missing' as const;
      if (job.status === 'completed' || job.status === 'failed') return 'finished' as const;
      const at = this.clock.now();
      let claimed: ContactImport;
      try {
        claimed = await this.step(repos, job, { type: 'claim', at, leaseUntil: new Date(at.getTime() + this.leaseMs) });
      } catch (error) {
        if (error instanceof DomainError && error.code === 'CONFLICT') return 'busy' as const;
        throw error;
      }
      if (claimed.status === 'failed') {
        await repos.events.record([this.event(claimed, 'import.failed', { jobId: claimed.id, processed: claimed.processed, error: claimed.error }, at)]);
        return 'failed' as const;
      }
      return 'claimed' as const;
    });
    if (claimed !== 'claimed') return claimed;
    for (;;) {
      const outcome = await this.uow.transaction(async (repos): Promise<ImportRunOutcome | null> => {
        const job = await repos.contactImports.findByIdForUpdate(importId);
        if (!job) return 'missing';
        if (job.status !== 'running') return 'finished';
        const at = this.clock.now();
        if (job.nextBatch >= job.batches) {
          const done = await this.step(repos, job, { type: 'complete', at });
          await repos.events.record([
            this.event(done, 'import.completed', { jobId: done.id, total: done.total, created: done.created, updated: done.updated, skipped: done.skipped, failed: done.failed }, at),
          ]);
          return 'completed';
        }
        try {
          await this.writeBatch(repos, job, at);
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          // A refusal of the domain (not a crash) cannot get better by retrying: the import stops.
          const failed = await this.step(repos, job, { type: 'fail', at, error: { code: error.code, message: error.message } });
          await repos.events.record([
            this.event(failed, 'import.failed', { jobId: failed.id, processed: failed.processed, error: { code: error.code, message: error.message } }, at),
          ]);
          return 'failed';
        }
        return null;
      });
      if (outcome) return outcome;
    }
  }

  /**
   * The rows were checked against the definitions of the import's creation: values of a field deleted since (or
   * deleted and created again, maybe with another type) are dropped, as the delete dropped them from every contact —
   * as tags deleted since are skipped. The definitions kept are locked from deletion until the batch commits.
   */
  private async withFieldsStillDefined(repos: Repositories<ContactRepositories>, job: ContactImport, rows: readonly PreparedImportRow[]): Promise<PreparedImportRow[]> {
    const keys = new Set<string>();
    for (const row of rows) for (const key of Object.keys(row.write!.customFields)) keys.add(key);
    if (keys.size === 0) return [...rows];
    const defined = await repos.contactFields.listForUse(job.companyId, [...keys]);
    const usable = new Set(defined.filter((d) => d.createdAt.getTime() <= job.createdAt.getTime()).map((d) => d.key));
    if (usable.size === keys.size) return [...rows];
    return rows.map((row) => {
      const customFields = Object.fromEntries(Object.entries(row.write!.customFields).filter(([key]) => usable.has(key)));
      return { ...row, write: { ...row.write!, customFields } };
    });
  }

  private async writeBatch(repos: Repositories<ContactRepositories & TagRepositories>, job: ContactImport, at: Date): Promise<void> {
    const rows = await repos.contactImports.loadBatch(job.id, job.nextBatch);
    const writes = await this.withFieldsStillDefined(repos, job, rows.filter((r) => r.write));
    const outcomes = await repos.contacts.writeBatch(job.companyId, writes.map((r) => r.write!), job.mode, this.ids, at);
    const errors: ImportRowError[] = [];
    const counts = { processed: rows.length, created: 0, updated: 0, skipped: 0, failed: 0 };
    for (const row of rows) {
      if (row.error) {
        counts.failed += 1;
        errors.push(row.error);
      } else if (row.duplicate) {
        counts.skipped += 1;
        errors.push({ row: row.row, field: 'phone', code: 'DUPLICATE_IN_FILE', message: 'the number of an earlier row (skipped)' });
      }
    }
    const events: DomainEvent[] = [];
    outcomes.forEach((outcome, i) => {
      const write = writes[i]!.write!;
      if (outcome.outcome === 'created') {
        counts.created += 1;
        events.push(this.event(job, 'contact.created', { contactId: outcome.contactId, phone: write.phone, name: write.name, source: 'import' }, at));
      } else if (outcome.outcome === 'updated') counts.updated += 1;
      else counts.skipped += 1;
      if (outcome.tagsAdded.length > 0) {
        events.push(this.event(job, 'contact.tagged', { contactId: outcome.contactId, tagIds: outcome.tagsAdded, source: 'import', ruleId: null }, at));
      }
    });
    await this.step(repos, job, { type: 'recordBatch', at, batch: job.nextBatch, leaseUntil: new Date(at.getTime() + this.leaseMs), counts, errors });
    if (events.length > 0) await repos.events.record(events);
  }
}

/** Re-queues imports whose worker is gone (an expired lease, or queued without a job for a minute). */
export class SweepContactImports {
  constructor(
    private readonly uow: UnitOfWork<ContactRepositories>,
    private readonly clock: Clock,
  ) {}

  async execute(): Promise<number> {
    return this.uow.transaction(async (repos) => {
      const now = this.clock.now();
      const ids = await repos.contactImports.listStale(now, new Date(now.getTime() - 60_000));
      for (const importId of ids) await repos.jobs.enqueue(ContactQueues.import, { importId }, { singletonKey: importId });
      return ids.length;
    });
  }
}
