import { SchedulingQueues, type SweepTimedSends } from '@carteiro/core';
import type { Job, JobHandler } from '../jobs/job-handler.js';
import type { LaneRunner } from '../campaigns/lane-runner.js';

/** `scheduling-wake` at a timed send's `effective_send_at`: wakes the box's dispatch lane here. */
export class SchedulingWakeJob implements JobHandler<{ setorId: string }> {
  readonly queue = SchedulingQueues.wake;
  readonly batchSize = 50;
  readonly pollingIntervalSeconds = 0.5;
  constructor(private readonly runner: LaneRunner) {}
  async handle(jobs: Job<{ setorId: string }>[]): Promise<void> {
    for (const job of jobs) this.runner.wake(job.data.setorId);
  }
}

/** `scheduling-sweep`, every minute: wakes lanes with due timed sends or a dead run's claim. */
export class SchedulingSweepJob implements JobHandler {
  readonly queue = SchedulingQueues.sweep;
  readonly cron = '* * * * *';
  constructor(
    private readonly sweep: SweepTimedSends,
    private readonly runner: LaneRunner,
  ) {}
  async handle(): Promise<void> {
    for (const setorId of await this.sweep.execute()) this.runner.wake(setorId);
  }
}
