import type { Decider } from '../shared/decider.js';
import { DomainError, InvalidTransitionError } from '../shared/errors.js';
import type { ContactBatchRow, ContactImportMode } from './contact-repository.js';

export const ContactImportStatuses = ['queued', 'running', 'completed', 'failed'] as const;
export type ContactImportStatus = (typeof ContactImportStatuses)[number];

/** Rows one batch writes in one transaction (conversations.md §7). */
export const IMPORT_BATCH_SIZE = 500;
/** Most rows one import takes. */
export const MAX_IMPORT_ROWS = 10_000;
/** Most row errors kept on an import. */
export const MAX_IMPORT_ERRORS = 1000;
/** Imports of a company queued or running at once; a third is refused. */
export const MAX_ACTIVE_IMPORTS = 2;
/** Claims of one import without a batch committed in between before it is failed as stalled (a batch that always crashes its worker). */
export const MAX_STALLED_CLAIMS = 5;

/** A row the import could not write: `row` counts from 1 in the order sent (CSV: the header is row 0). */
export interface ImportRowError {
  row: number;
  field: string | null;
  code: string;
  message: string;
}

/** A row as stored for its batch: what to write, or why it is not written. */
export interface PreparedImportRow {
  row: number;
  write?: ContactBatchRow;
  /** The row fails (`failed`). */
  error?: ImportRowError;
  /** A repeated match key after the first (`skipped`, DUPLICATE_IN_FILE). */
  duplicate?: boolean;
}

/** A contact import job and its progress; its counts (those of its batches, summed) are those the database reported. */
export interface ContactImport extends ImportBatchCounts {
  id: string;
  companyId: string;
  status: ContactImportStatus;
  mode: ContactImportMode;
  total: number;
  errors: ImportRowError[];
  /** Batches of the file, and the next one to write (all written when equal). */
  batches: number;
  nextBatch: number;
  /** Why a failed import stopped. */
  error: { code: string; message: string } | null;
  /** The worker processing it holds it until then; an expired lease lets another resume it. */
  leaseUntil: Date | null;
  /** Claims since the last committed batch: a batch that keeps failing stops the import after {@link MAX_STALLED_CLAIMS}. */
  stalledClaims: number;
  startedAt: Date | null;
  finishedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * A new import of `total` rows in `batches` batches, created `at`: queued, nothing processed yet.
 */
export function newContactImport(fields: { id: string; companyId: string; mode: ContactImportMode; total: number; batches: number; at: Date }): ContactImport {
  return {
    id: fields.id,
    companyId: fields.companyId,
    status: 'queued',
    mode: fields.mode,
    total: fields.total,
    processed: 0,
    created: 0,
    updated: 0,
    skipped: 0,
    failed: 0,
    errors: [],
    batches: fields.batches,
    nextBatch: 0,
    error: null,
    leaseUntil: null,
    stalledClaims: 0,
    startedAt: null,
    finishedAt: null,
    createdAt: fields.at,
    updatedAt: fields.at,
  };
}

/** What one batch wrote: its rows, by what became of them. */
export interface ImportBatchCounts {
  processed: number;
  created: number;
  updated: number;
  skipped: number;
  failed: number;
}

/** 0-100. */
export function importProgress(job: Pick<ContactImport, 'processed' | 'total' | 'status'>): number {
  if (job.status === 'completed') return 100;
  return job.total === 0 ? 0 : Math.floor((job.processed * 100) / job.total);
}

/** One committed batch: its counts and row errors, and the lease renewed with it (the command and its event alike). */
export interface ImportBatchRecord {
  at: Date;
  batch: number;
  leaseUntil: Date;
  counts: ImportBatchCounts;
  errors: ImportRowError[];
}

export type ContactImportCommand =
  | { type: 'claim'; at: Date; leaseUntil: Date }
  | ({ type: 'recordBatch' } & ImportBatchRecord)
  | { type: 'complete'; at: Date }
  | { type: 'fail'; at: Date; error: { code: string; message: string } };

export type ContactImportEvent =
  | { type: 'claimed'; at: Date; leaseUntil: Date; first: boolean }
  | ({ type: 'batchRecorded' } & ImportBatchRecord)
  | { type: 'completed'; at: Date }
  | { type: 'failed'; at: Date; error: { code: string; message: string } };

const finished = (s: ContactImportStatus) => s === 'completed' || s === 'failed';

/**
 * The import job: `queued` → `running` (claimed by a worker, with a lease renewed per batch) →
 * `completed` or `failed`. A batch already recorded is an idempotent repeat (a retried job
 * resumes after the last committed batch); a live lease of another worker refuses a claim.
 */
export const contactImportDecider: Decider<ContactImport, ContactImportCommand, ContactImportEvent> = {
  decide(command, state) {
    switch (command.type) {
      case 'claim':
        if (finished(state.status)) return [];
        if (state.status === 'running' && state.leaseUntil && state.leaseUntil.getTime() > command.at.getTime()) {
          throw new DomainError('CONFLICT', 'The import is being processed by another worker', { leaseUntil: state.leaseUntil.toISOString() });
        }
        if (state.stalledClaims >= MAX_STALLED_CLAIMS) {
          return [{ type: 'failed', at: command.at, error: { code: 'IMPORT_STALLED', message: `Batch ${state.nextBatch + 1} failed ${state.stalledClaims} times in a row` } }];
        }
        return [{ type: 'claimed', at: command.at, leaseUntil: command.leaseUntil, first: state.status === 'queued' }];
      case 'recordBatch':
        if (state.status !== 'running') throw new InvalidTransitionError('import', state.status, 'record a batch of', ['running']);
        if (command.batch !== state.nextBatch) return [];
        return [{ type: 'batchRecorded', at: command.at, batch: command.batch, leaseUntil: command.leaseUntil, counts: command.counts, errors: command.errors }];
      case 'complete':
        if (state.status === 'completed') return [];
        if (state.status !== 'running' || state.nextBatch < state.batches) throw new InvalidTransitionError('import', state.status, 'complete', ['running']);
        return [{ type: 'completed', at: command.at }];
      case 'fail':
        if (finished(state.status)) return [];
        return [{ type: 'failed', at: command.at, error: command.error }];
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'claimed':
        return {
          ...state,
          status: 'running',
          leaseUntil: event.leaseUntil,
          stalledClaims: state.stalledClaims + 1,
          startedAt: state.startedAt ?? event.at,
          updatedAt: event.at,
        };
      case 'batchRecorded':
        return {
          ...state,
          nextBatch: event.batch + 1,
          leaseUntil: event.leaseUntil,
          stalledClaims: 0,
          processed: state.processed + event.counts.processed,
          created: state.created + event.counts.created,
          updated: state.updated + event.counts.updated,
          skipped: state.skipped + event.counts.skipped,
          failed: state.failed + event.counts.failed,
          errors: [...state.errors, ...event.errors].slice(0, MAX_IMPORT_ERRORS),
          updatedAt: event.at,
        };
      case 'completed':
        return { ...state, status: 'completed', leaseUntil: null, finishedAt: event.at, updatedAt: event.at };
      case 'failed':
        return { ...state, status: 'failed', leaseUntil: null, error: event.error, finishedAt: event.at, updatedAt: event.at };
    }
  },
};
