import type { JobScheduler } from '../shared/job-scheduler.js';
import { CampaignQueues } from './campaign-queues.js';

/** Asks for a lane run of each setor (at most one queued run per setor: the job is a singleton). */
export async function wakeLanes(jobs: JobScheduler, setorIds: Iterable<string>, startAfter?: Date): Promise<void> {
  for (const setorId of new Set(setorIds)) {
    await jobs.enqueue(CampaignQueues.lane, { setorId }, { singletonKey: setorId, ...(startAfter ? { startAfter } : {}) });
  }
}
