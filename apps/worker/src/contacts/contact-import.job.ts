import { ContactQueues, type RunContactImport, type SweepContactImports } from '@carteiro/core';
import type { BackgroundService, Job, JobHandler } from '../jobs/job-handler.js';
import type { Logger } from '../tokens.js';

/** Runs contact imports: each job writes its import's batches from the last committed one. */
export class ContactImportJob implements JobHandler<{ importId: string }> {
  readonly queue = ContactQueues.import;
  readonly batchSize = 1;
  readonly pollingIntervalSeconds = 0.5;
  constructor(private readonly run: RunContactImport) {}
  async handle(jobs: Job<{ importId: string }>[]): Promise<void> {
    for (const job of jobs) await this.run.execute(job.data.importId);
  }
}

/**
 * At start, and once the lease of a dead worker has run out, re-queues imports left running or
 * queued without a job (a killed worker's import resumes after its last committed batch).
 */
export class ImportStartupSweep implements BackgroundService {
  readonly name = 'contact-import-startup-sweep';
  private timer: NodeJS.Timeout | null = null;
  constructor(
    private readonly sweep: SweepContactImports,
    private readonly logger: Logger,
    private readonly leaseMs: number,
  ) {}
  async start(): Promise<void> {
    const run = () => void this.sweep.execute().catch((error: unknown) => this.logger.error({ err: error }, 'contact import sweep failed'));
    run();
    this.timer = setTimeout(run, this.leaseMs + 500);
    this.timer.unref();
  }
  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
  }
}
