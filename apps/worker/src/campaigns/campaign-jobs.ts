import { CampaignQueues, type PrepareCampaign, type StartCampaign, type SweepCampaigns } from '@carteiro/core';
import { cronJob, perJob, startupSweep } from '../jobs/job-kinds.js';
import type { LaneRunner } from './lane-runner.js';
import type { Logger } from '../tokens.js';

/** `campaign-prepare`: links (creating where needed) the contacts of a new campaign's recipients. */
export const campaignPrepareJob = (prepare: PrepareCampaign) =>
  perJob<{ campaignId: string }>({ queue: CampaignQueues.prepare, batchSize: 5, pollingIntervalSeconds: 0.5 }, (data) => prepare.execute(data.campaignId));

/** `campaign-start`: a due campaign becomes processando and wakes its lanes. */
export const campaignStartJob = (start: StartCampaign) =>
  perJob<{ campaignId: string }>({ queue: CampaignQueues.start, batchSize: 10, pollingIntervalSeconds: 0.5 }, (data) => start.execute(data.campaignId));

/** `campaign-lane`: wakes a setor's lane in this process (the lane runs beside the queue). */
export const campaignLaneJob = (runner: LaneRunner) =>
  perJob<{ setorId: string }>({ queue: CampaignQueues.lane, batchSize: 50, pollingIntervalSeconds: 0.5 }, (data) => runner.wake(data.setorId));

/** `campaign-sweep`, every minute: the safety net (due starts, orphaned lanes, missed completions). */
export const campaignSweepJob = (sweep: SweepCampaigns) => cronJob(CampaignQueues.sweep, '* * * * *', () => sweep.execute());

/**
 * Sweeps when the worker starts, and once more when the leases of a worker that died just
 * before have run out, so that a restarted worker resumes within a lease, not a minute.
 */
export const campaignStartupSweep = (sweep: SweepCampaigns, logger: Logger, leaseMs: number) =>
  startupSweep({ name: 'campaign-startup-sweep', sweep: () => sweep.execute(), logger, failure: 'startup campaign sweep failed', againAfterMs: leaseMs + 500 });
