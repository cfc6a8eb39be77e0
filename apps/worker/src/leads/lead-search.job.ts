import { LeadQueues, type ResumeLeadSearches, type RunLeadSearch } from '@carteiro/core';
import { perJob, startupSweep } from '../jobs/job-kinds.js';
import type { Logger } from '../tokens.js';

/** Runs lead searches: each job reads its search's source from the last committed page. */
export const leadSearchJob = (run: RunLeadSearch) =>
  perJob<{ searchId: string }>({ queue: LeadQueues.search, batchSize: 1, pollingIntervalSeconds: 0.5 }, (data) => run.execute(data.searchId));

/** At start, re-queues lead searches left unfinished (a killed worker's search resumes from its last committed page). */
export const leadSearchStartupSweep = (resume: ResumeLeadSearches, logger: Logger) =>
  startupSweep({ name: 'lead-search-startup-sweep', sweep: () => resume.execute(), logger, failure: 'lead search sweep failed' });
