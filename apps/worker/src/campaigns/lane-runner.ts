import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { CampaignQueues, type JobScheduler, type LaneRunResult, type RunDispatchLane } from '@carteiro/core';
import type { BackgroundService } from '../jobs/job-handler.js';
import type { Logger } from '../tokens.js';

/**
 * Runs dispatch lanes inside the worker process, many at once (one per setor): a lane job only
 * wakes a lane here and completes at once, so that a lane that sends for a minute never holds a
 * pg-boss slot or blocks other setores. Crash safety does not rest on the job: the lane lease in
 * PostgreSQL expires and the sweep (every minute, and at every worker start) wakes lanes with
 * work and no live lease. A wake-up for a lane already running here makes it look again when it
 * finishes, so no wake-up is lost.
 */
export class LaneRunner implements BackgroundService {
  readonly name = 'campaign-lanes';
  private readonly running = new Map<string, { again: boolean; done: Promise<void> }>();
  private readonly controller = new AbortController();
  private readonly workerId = `${hostname()}:${process.pid}`;

  private laneInstance: RunDispatchLane | null = null;

  constructor(
    /** Resolved on first use: a worker without a channel gateway (or without campaigns) never needs it. */
    private readonly laneFactory: () => RunDispatchLane,
    private readonly jobs: JobScheduler,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {}

  /** Starts the lane of a setor unless it runs here already (then it runs once more after). */
  wake(setorId: string): void {
    if (this.controller.signal.aborted) return;
    const current = this.running.get(setorId);
    if (current) {
      current.again = true;
      return;
    }
    const entry = { again: false, done: Promise.resolve() };
    entry.done = this.loop(setorId, entry).finally(() => this.running.delete(setorId));
    this.running.set(setorId, entry);
  }

  get active(): number {
    return this.running.size;
  }

  private async loop(setorId: string, entry: { again: boolean }): Promise<void> {
    do {
      entry.again = false;
      let result: LaneRunResult;
      try {
        this.laneInstance ??= this.laneFactory();
        result = await this.laneInstance.run(setorId, `${this.workerId}:${randomUUID()}`, this.controller.signal);
      } catch (error) {
        this.logger.error({ err: error, setorId }, 'campaign lane failed; it will be retried');
        result = { outcome: 'yielded', sent: 0, failed: 0, rescheduleAt: new Date(Date.now() + 5_000) };
      }
      if (this.controller.signal.aborted) return;
      const at = result.outcome === 'busy' ? new Date(Math.min(result.rescheduleAt?.getTime() ?? Infinity, Date.now() + 2_000)) : result.rescheduleAt;
      if (at && !entry.again) {
        await this.jobs.enqueue(CampaignQueues.lane, { setorId }, { singletonKey: setorId, startAfter: at }).catch((error: unknown) => {
          this.logger.error({ err: error, setorId }, 'could not reschedule a campaign lane; the sweep will wake it');
        });
      }
    } while (entry.again && !this.controller.signal.aborted);
  }

  /** Stops every lane after its current send; their leases are released for other workers. */
  async stop(): Promise<void> {
    this.controller.abort();
    await Promise.all([...this.running.values()].map((r) => r.done));
  }
}
