import { LeadQueues, type ResumeLeadSearches, type RunLeadSearch } from '@carteiro/core';
import type { BackgroundService, Job, JobHandler } from '../jobs/job-handler.js';
import type { Logger } from '../tokens.js';

/** Runs lead searches: each job reads its search's source from the last committed page. */
export class LeadSearchJob implements JobHandler<{ searchId: string }> {
  readonly queue = LeadQueues.search;
  readonly batchSize = 1;
  readonly pollingIntervalSeconds = 0.5;
  constructor(private readonly run: RunLeadSearch) {}
  async handle(jobs: Job<{ searchId: string }>[]): Promise<void> {
    for (const job of jobs) await this.run.execute(job.data.searchId);
  }
}

/** At start, re-queues lead searches left unfinished (a killed worker's search resumes from its last committed page). */
export class LeadSearchStartupSweep implements BackgroundService {
  readonly name = 'lead-search-startup-sweep';
  constructor(
    private readonly resume: ResumeLeadSearches,
    private readonly logger: Logger,
  ) {}
  async start(): Promise<void> {
    void this.resume.execute().catch((error: unknown) => this.logger.error({ err: error }, 'lead search sweep failed'));
  }
  async stop(): Promise<void> {}
}
