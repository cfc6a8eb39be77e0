import { SchedulingQueues, type SweepTimedSends } from '@carteiro/core';
import type { LaneRunner } from '../campaigns/lane-runner.js';
import { cronJob, perJob, startupSweep } from '../jobs/job-kinds.js';
import type { Logger } from '../tokens.js';

/** `scheduling-wake` at a timed send's `effective_send_at`: wakes the box's dispatch lane here. */
export const schedulingWakeJob = (runner: LaneRunner) =>
  perJob<{ setorId: string }>({ queue: SchedulingQueues.wake, batchSize: 50, pollingIntervalSeconds: 0.5 }, (data) => runner.wake(data.setorId));

/** Wakes the lanes with due timed sends or a dead run's claim. */
const wakeDueLanes = async (sweep: SweepTimedSends, runner: LaneRunner) => {
  for (const setorId of await sweep.execute()) runner.wake(setorId);
};

/** `scheduling-sweep`, every minute: wakes lanes with due timed sends or a dead run's claim. */
export const schedulingSweepJob = (sweep: SweepTimedSends, runner: LaneRunner) => cronJob(SchedulingQueues.sweep, '* * * * *', () => wakeDueLanes(sweep, runner));

/** At start (and once a lease later), wakes the lanes whose timed sends a dead worker left behind. */
export const schedulingStartupSweep = (sweep: SweepTimedSends, runner: LaneRunner, logger: Logger, leaseMs: number) =>
  startupSweep({ name: 'scheduling-startup-sweep', sweep: () => wakeDueLanes(sweep, runner), logger, failure: 'startup timed-send sweep failed', againAfterMs: leaseMs + 500 });
