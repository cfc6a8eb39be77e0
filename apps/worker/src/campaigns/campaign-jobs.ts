import { CampaignQueues, PrepareCampaign, StartCampaign, SweepCampaigns } from '@carteiro/core';
import type { BackgroundService, Job, JobHandler } from '../jobs/job-handler.js';
import type { LaneRunner } from './lane-runner.js';
import type { Logger } from '../tokens.js';

/** `campaign-prepare`: links (creating where needed) the contacts of a new campaign's recipients. */
export class CampaignPrepareJob implements JobHandler<{ campaignId: string }> {
  readonly queue = CampaignQueues.prepare;
  readonly batchSize = 5;
  readonly pollingIntervalSeconds = 0.5;
  constructor(private readonly prepare: PrepareCampaign) {}
  async handle(jobs: Job<{ campaignId: string }>[]): Promise<void> {
    for (const job of jobs) await this.prepare.execute(job.data.campaignId);
  }
}

/** `campaign-start`: a due campaign becomes processando and wakes its lanes. */
export class CampaignStartJob implements JobHandler<{ campaignId: string }> {
  readonly queue = CampaignQueues.start;
  readonly batchSize = 10;
  readonly pollingIntervalSeconds = 0.5;
  constructor(private readonly start: StartCampaign) {}
  async handle(jobs: Job<{ campaignId: string }>[]): Promise<void> {
    for (const job of jobs) await this.start.execute(job.data.campaignId);
  }
}

/** `campaign-lane`: wakes a setor's lane in this process (the lane runs beside the queue). */
export class CampaignLaneJob implements JobHandler<{ setorId: string }> {
  readonly queue = CampaignQueues.lane;
  readonly batchSize = 50;
  readonly pollingIntervalSeconds = 0.5;
  constructor(private readonly runner: LaneRunner) {}
  async handle(jobs: Job<{ setorId: string }>[]): Promise<void> {
    for (const job of jobs) this.runner.wake(job.data.setorId);
  }
}

/** `campaign-sweep`, every minute: the safety net (due starts, orphaned lanes, missed completions). */
export class CampaignSweepJob implements JobHandler {
  readonly queue = CampaignQueues.sweep;
  readonly cron = '* * * * *';
  constructor(
    private readonly sweep: SweepCampaigns,
    private readonly runner: LaneRunner,
  ) {}
  async handle(): Promise<void> {
    await this.sweep.execute();
  }
}

/**
 * Sweeps when the worker starts, and once more when the leases of a worker that died just
 * before have run out, so that a restarted worker resumes within a lease, not a minute.
 */
export class StartupSweep implements BackgroundService {
  readonly name = 'campaign-startup-sweep';
  private timer: NodeJS.Timeout | null = null;
  constructor(
    private readonly sweep: SweepCampaigns,
    private readonly logger: Logger,
    private readonly leaseMs: number,
  ) {}
  async start(): Promise<void> {
    const run = () => void this.sweep.execute().catch((error: unknown) => this.logger.error({ err: error }, 'startup campaign sweep failed'));
    run();
    this.timer = setTimeout(run, this.leaseMs + 500);
    this.timer.unref();
  }
  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
  }
}
