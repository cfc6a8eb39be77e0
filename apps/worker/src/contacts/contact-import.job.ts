import { ContactQueues, type RunContactImport, type SweepContactImports } from '@carteiro/core';
import { perJob, startupSweep } from '../jobs/job-kinds.js';
import type { Logger } from '../tokens.js';

/** Runs contact imports: each job writes its import's batches from the last committed one. */
export const contactImportJob = (run: RunContactImport) =>
  perJob<{ importId: string }>({ queue: ContactQueues.import, batchSize: 1, pollingIntervalSeconds: 0.5 }, (data) => run.execute(data.importId));

/**
 * At start, and once the lease of a dead worker has run out, re-queues imports left running or
 * queued without a job (a killed worker's import resumes after its last committed batch).
 */
export const importStartupSweep = (sweep: SweepContactImports, logger: Logger, leaseMs: number) =>
  startupSweep({ name: 'contact-import-startup-sweep', sweep: () => sweep.execute(), logger, failure: 'contact import sweep failed', againAfterMs: leaseMs + 500 });
