import { ContractQueues, type ReconcileContracts, type SweepStuckContractSends } from '@carteiro/core';
import { cronJob } from '../jobs/job-kinds.js';
import type { Logger } from '../tokens.js';

/** Every 10 minutes: applies what the signing providers know and a missed webhook did not say; expires contracts past `expires_at`. */
export const reconcileContractsJob = (reconcile: ReconcileContracts, logger: Logger) =>
  cronJob(ContractQueues.reconcile, '*/10 * * * *', async () => {
    const summary = await reconcile.execute();
    logger.debug({ summary }, 'contracts reconciled');
  });

/** Every minute: cancels the envelope of sends stuck in `sending` for 5 minutes and returns them to draft. */
export const sweepContractSendsJob = (sweep: SweepStuckContractSends, logger: Logger) =>
  cronJob(ContractQueues.sweep, '* * * * *', async () => {
    const returned = await sweep.execute();
    if (returned > 0) logger.info({ returned }, 'stuck contract sends returned to draft');
  });
