import { describe, expect, it } from '@jest/globals';
import { InMemoryUnitOfWork, ManualClock, SequentialIds } from '../testing/index.js';
import { ContactQueues, CreateContactImport, IMPORT_BATCH_SIZE, MAX_STALLED_CLAIMS, RunContactImport, SweepContactImports } from './index.js';

const company = { id: '00000000-0000-4000-8000-00000000000a' };
const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ phone: `+55119${(80_000_000 + i).toString()}`, name: `P${i}` }));

const setup = () => {
  const uow = new InMemoryUnitOfWork();
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  const ids = new SequentialIds();
  return { uow, clock, ids, create: new CreateContactImport(uow, clock, ids), run: new RunContactImport(uow, clock, ids, 30_000) };
};

/** Makes the batch write throw (as a killed worker's transaction would end) for the given calls, counting from 1. */
function crashOn(uow: InMemoryUnitOfWork, calls: number[]) {
  const original = uow.repos.contacts.writeBatch.bind(uow.repos.contacts);
  let call = 0;
  uow.repos.contacts.writeBatch = async (...args) => {
    call += 1;
    const result = await original(...args);
    if (calls.includes(call)) throw new Error('worker died');
    return result;
  };
}

describe('running an import', () => {
  it('queues the job with the import and writes every batch, counting what was written', async () => {
    const { uow, create, run } = setup();
    const job = await create.execute(company, { rows: [...rows(IMPORT_BATCH_SIZE + 10), { phone: 'bad' }] });
    expect(uow.store.jobs.map((j) => [j.queue, j.data])).toEqual([[ContactQueues.import, { importId: job.id }]]);
    expect(job).toMatchObject({ status: 'queued', total: IMPORT_BATCH_SIZE + 11, batches: 2 });
    expect(await run.execute(job.id)).toBe('completed');
    expect(await uow.repos.contactImports.findById(company.id, job.id)).toMatchObject({ status: 'completed', processed: 511, created: 510, failed: 1 });
    expect(uow.store.events.filter((e) => e.event === 'contact.created')).toHaveLength(510);
    expect(await run.execute(job.id)).toBe('finished');
  });

  it('a crash in the middle of a batch loses only that batch: the next run resumes there and writes each row once', async () => {
    const { uow, clock, create, run } = setup();
    const job = await create.execute(company, { rows: rows(3 * IMPORT_BATCH_SIZE) });
    crashOn(uow, [2]);
    await expect(run.execute(job.id)).rejects.toThrow('worker died');
    expect(await uow.repos.contactImports.findById(company.id, job.id)).toMatchObject({ status: 'running', nextBatch: 1, processed: IMPORT_BATCH_SIZE });
    // Another worker waits for the lease, then the sweep queues the import again and the run resumes at batch 2.
    expect(await run.execute(job.id)).toBe('busy');
    clock.advance(31_000);
    expect(await new SweepContactImports(uow, clock).execute()).toBe(1);
    expect(await run.execute(job.id)).toBe('completed');
    expect(await uow.repos.contactImports.findById(company.id, job.id)).toMatchObject({ processed: 3 * IMPORT_BATCH_SIZE, created: 3 * IMPORT_BATCH_SIZE });
    const created = uow.store.events.filter((e) => e.event === 'contact.created');
    expect(new Set(created.map((e) => e.data.contactId)).size).toBe(3 * IMPORT_BATCH_SIZE);
    expect(created).toHaveLength(3 * IMPORT_BATCH_SIZE);
    expect(uow.store.events.filter((e) => e.event === 'import.completed').map((e) => e.data)).toEqual([
      { jobId: job.id, total: 1500, created: 1500, updated: 0, skipped: 0, failed: 0 },
    ]);
  });

  it(`a batch that fails ${MAX_STALLED_CLAIMS} times in a row stops the import with import.failed`, async () => {
    const { uow, clock, create, run } = setup();
    const job = await create.execute(company, { rows: rows(10) });
    crashOn(uow, Array.from({ length: MAX_STALLED_CLAIMS }, (_, i) => i + 1));
    for (let i = 0; i < MAX_STALLED_CLAIMS; i += 1) {
      await expect(run.execute(job.id)).rejects.toThrow('worker died');
      clock.advance(31_000);
    }
    expect(await run.execute(job.id)).toBe('failed');
    expect(await uow.repos.contactImports.findById(company.id, job.id)).toMatchObject({ status: 'failed', error: { code: 'IMPORT_STALLED' } });
    expect(uow.store.events.filter((e) => e.event === 'import.failed').map((e) => e.data)).toEqual([
      { jobId: job.id, processed: 0, error: { code: 'IMPORT_STALLED', message: `Batch 1 failed ${MAX_STALLED_CLAIMS} times in a row` } },
    ]);
  });

  it('a third active import of the company is refused', async () => {
    const { create } = setup();
    await create.execute(company, { rows: rows(1) });
    await create.execute(company, { rows: rows(1) });
    await expect(create.execute(company, { rows: rows(1) })).rejects.toMatchObject({ code: 'CONCURRENT_LIMIT_EXCEEDED' });
  });
});
