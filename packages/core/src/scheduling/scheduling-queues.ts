import type { JobScheduler, QueueDefinition } from '../shared/job-scheduler.js';

/** Queues of timed sends: the API enqueues wake-ups, the worker consumes both. */
export const SchedulingQueues = {
  /** `{ setorId }` at a row's `effective_send_at`: wakes the box's dispatch lane (any number per box). */
  wake: 'scheduling-wake',
  /** Every minute: wakes the lanes of boxes with due rows or rows claimed by a dead lane run. */
  sweep: 'scheduling-sweep',
} as const;

export const schedulingQueueDefinitions: readonly QueueDefinition[] = [
  { name: SchedulingQueues.wake, policy: 'standard', retryLimit: 3, retryDelay: 5 },
  { name: SchedulingQueues.sweep, policy: 'singleton', retryLimit: 1 },
];

/**
 * Asks for the box's lane at `at`. A plain job per due time (not the lane's singleton): a box may
 * have many future sends, and the lane job keeps at most one queued per box.
 */
export async function wakeTimedSendAt(jobs: JobScheduler, setorId: string, at: Date): Promise<void> {
  await jobs.enqueue(SchedulingQueues.wake, { setorId }, { startAfter: at });
}
