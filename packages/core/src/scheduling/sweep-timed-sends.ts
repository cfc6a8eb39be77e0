import type { Clock } from '../shared/clock.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import type { SchedulingRepositories } from './scheduling-repositories.js';

/**
 * The minute sweep of timed sends: the boxes with due rows (a wake-up job lost) or rows claimed
 * longer than a lease ago (a lane run that died) — the caller wakes their lanes.
 */
export class SweepTimedSends {
  constructor(
    private readonly uow: UnitOfWork<SchedulingRepositories>,
    private readonly clock: Clock,
    private readonly leaseMs: number,
  ) {}

  async execute(): Promise<string[]> {
    const now = this.clock.now();
    return this.uow.transaction((repos) => repos.scheduledMessages.setoresWithWork(now, new Date(now.getTime() - this.leaseMs)));
  }
}
