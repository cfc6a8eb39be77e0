import { LeadQueues, type RunLeadSearch } from '@carteiro/core';
import type { Job, JobHandler } from '../jobs/job-handler.js';

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
