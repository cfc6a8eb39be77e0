import { ContractQueues, ReconcileContracts, SweepStuckContractSends } from '@carteiro/core';
import { inject, injectable } from 'inversify';
import type { Job, JobHandler } from '../jobs/job-handler.js';
import { Logger } from '../tokens.js';

/** Every 10 minutes: applies what the signing providers know and a missed webhook did not say; expires contracts past `expires_at`. */
@injectable()
export class ReconcileContractsJob implements JobHandler {
  readonly queue = ContractQueues.reconcile;
  readonly cron = '*/10 * * * *';

  constructor(
    @inject(ReconcileContracts) private readonly reconcile: ReconcileContracts,
    @inject(Logger) private readonly logger: Logger,
  ) {}

  async handle(_jobs: Job<Record<string, unknown>>[]): Promise<void> {
    const summary = await this.reconcile.execute();
    this.logger.debug({ summary }, 'contracts reconciled');
  }
}

/** Every minute: cancels the envelope of sends stuck in `sending` for 5 minutes and returns them to draft. */
@injectable()
export class SweepContractSendsJob implements JobHandler {
  readonly queue = ContractQueues.sweep;
  readonly cron = '* * * * *';

  constructor(
    @inject(SweepStuckContractSends) private readonly sweep: SweepStuckContractSends,
    @inject(Logger) private readonly logger: Logger,
  ) {}

  async handle(_jobs: Job<Record<string, unknown>>[]): Promise<void> {
    const returned = await this.sweep.execute();
    if (returned > 0) this.logger.info({ returned }, 'stuck contract sends returned to draft');
  }
}
