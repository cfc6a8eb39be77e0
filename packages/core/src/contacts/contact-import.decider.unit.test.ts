import { describe, expect, it } from '@jest/globals';
import { given } from '../testing/index.js';
import { DomainError, InvalidTransitionError } from '../shared/errors.js';
import { contactImportDecider, importProgress, newContactImport, type ContactImport } from './contact-import.js';

const at = new Date('2026-03-01T12:00:00.000Z');
const lease = new Date(at.getTime() + 30_000);
const job = (fields: Partial<ContactImport> = {}): ContactImport => ({
  ...newContactImport({ id: 'i', companyId: 'c', mode: 'fill', total: 1000, batches: 2, at }),
  ...fields,
});
const counts = { processed: 500, created: 400, updated: 50, skipped: 30, failed: 20 };

describe('contact import decider', () => {
  it('a claim starts a queued import, resumes one whose lease ran out, and is refused while another worker holds it', () => {
    given(contactImportDecider, job()).when({ type: 'claim', at, leaseUntil: lease }).thenState({ status: 'running', leaseUntil: lease, startedAt: at });
    given(contactImportDecider, job({ status: 'running', leaseUntil: new Date(at.getTime() - 1), startedAt: new Date(0) }))
      .when({ type: 'claim', at, leaseUntil: lease })
      .thenState({ status: 'running', leaseUntil: lease, startedAt: new Date(0) });
    given(contactImportDecider, job({ status: 'running', leaseUntil: lease })).when({ type: 'claim', at, leaseUntil: lease }).thenThrows(DomainError);
    given(contactImportDecider, job({ status: 'completed' })).when({ type: 'claim', at, leaseUntil: lease }).then([]);
  });

  it('counts claims without progress and fails the import as stalled after five', () => {
    const claimed = given(contactImportDecider, job()).when({ type: 'claim', at, leaseUntil: lease }).thenState({ stalledClaims: 1 });
    given(contactImportDecider, claimed)
      .when({ type: 'recordBatch', at, batch: 0, leaseUntil: lease, counts, errors: [] })
      .thenState({ stalledClaims: 0 });
    given(contactImportDecider, job({ status: 'running', stalledClaims: 5, nextBatch: 1 }))
      .when({ type: 'claim', at, leaseUntil: lease })
      .thenState({ status: 'failed', error: { code: 'IMPORT_STALLED', message: 'Batch 2 failed 5 times in a row' } });
  });

  it('records the next batch once: a repeat of a committed batch changes nothing', () => {
    const state = given(contactImportDecider, job({ status: 'running' }))
      .when({ type: 'recordBatch', at, batch: 0, leaseUntil: lease, counts, errors: [{ row: 3, field: 'phone', code: 'INVALID_NUMBER', message: 'x' }] })
      .thenState({ nextBatch: 1, processed: 500, created: 400, updated: 50, skipped: 30, failed: 20 });
    expect(state.errors).toHaveLength(1);
    expect(importProgress(state)).toBe(50);
    given(contactImportDecider, state).when({ type: 'recordBatch', at, batch: 0, leaseUntil: lease, counts, errors: [] }).then([]);
    given(contactImportDecider, job({ status: 'queued' })).when({ type: 'recordBatch', at, batch: 0, leaseUntil: lease, counts, errors: [] }).thenThrows(InvalidTransitionError);
  });

  it('completes only after the last batch; fails once', () => {
    given(contactImportDecider, job({ status: 'running', nextBatch: 1 })).when({ type: 'complete', at }).thenThrows(InvalidTransitionError);
    const done = given(contactImportDecider, job({ status: 'running', nextBatch: 2 })).when({ type: 'complete', at }).thenState({ status: 'completed', finishedAt: at, leaseUntil: null });
    expect(importProgress(done)).toBe(100);
    given(contactImportDecider, done).when({ type: 'complete', at }).then([]);
    given(contactImportDecider, job({ status: 'running' }))
      .when({ type: 'fail', at, error: { code: 'X', message: 'm' } })
      .thenState({ status: 'failed', error: { code: 'X', message: 'm' }, finishedAt: at });
    given(contactImportDecider, done).when({ type: 'fail', at, error: { code: 'X', message: 'm' } }).then([]);
  });
});
