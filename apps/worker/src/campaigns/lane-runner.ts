import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { CampaignQueues, type JobScheduler, type LaneRunResult, type RunDispatchLane } from '@carteiro/core';
import type { BackgroundService } from '../jobs/job-handler.js';
import type { Logger } from '../tokens.js';

/** How the worker processes share the lanes (docs/scaling.md, "Many numbers, many workers"). */
export interface LaneSharing {
  /**
   * Owners of every live lane lease in the database (this and the other workers), the lane wake-ups
   * waiting in the queue (lanes between two workers, or waiting out a long gap) and how many worker
   * processes are connected (idle ones included), refreshed every `censusMs`.
   */
  census(): Promise<{ owners: string[]; queued: number; workers: number }>;
  censusMs: number;
  /** A worker holding more than `fair × (1 + tolerance) + 1` lanes hands the excess over. */
  tolerance: number;
  /**
   * Called when a worker that held lanes holds none any more (it stopped, or died and its leases ran
   * out): wakes the lanes with work and no live lease, without waiting for the minute's sweep.
   */
  orphansFound(): Promise<void>;
}

/**
 * Runs dispatch lanes inside the worker process, many at once (one per setor): a lane job only
 * wakes a lane here and completes at once, so that a lane that sends for a minute never holds a
 * pg-boss slot or blocks other setores. Crash safety does not rest on the job: the lane lease in
 * PostgreSQL expires and the sweep (every minute, and at every worker start) wakes lanes with
 * work and no live lease. A wake-up for a lane already running here makes it look again when it
 * finishes, so no wake-up is lost.
 *
 * Sharing: every few seconds the runner counts the live leases of every worker (its own lanes are
 * owned `<host>:<pid>:<run>`), the lane wake-ups waiting in the queue and the connected workers. A
 * worker above its fair share (lanes ÷ workers) at two censuses in a row, while another worker is
 * below it, stops half its excess lanes after their current send and hands them to the queue, so
 * the lanes spread over the workers whatever worker fetched their jobs.
 * A worker within its share keeps a lane whose run reached the end of its slice running here,
 * without a trip through the queue (which costs a polling period of lateness).
 */
export class LaneRunner implements BackgroundService {
  readonly name = 'campaign-lanes';
  private readonly running = new Map<string, { again: boolean; shed: AbortController; done: Promise<void> }>();
  private readonly controller = new AbortController();
  private readonly workerId = `${hostname()}:${process.pid}`;
  private timer: NodeJS.Timeout | null = null;
  /** Fair share from the last census (lanes per worker); Infinity until the first one. */
  private fairShare = Number.POSITIVE_INFINITY;
  /** Fewest lanes another worker held at the last census (Infinity: no other worker holds any). */
  private fewestElsewhere = Number.POSITIVE_INFINITY;
  /** When this worker handed each lane over (it does not take a lane straight back). */
  private readonly shedAt = new Map<string, number>();
  /** Whether the last census found this worker above its share. */
  private overBefore = false;
  /** Workers that held lanes at the last census. */
  private holders = new Set<string>();
  private sent = 0;
  private failed = 0;
  private shedCount = 0;

  private laneInstance: RunDispatchLane | null = null;

  constructor(
    /** Resolved on first use: a worker without a channel gateway (or without campaigns) never needs it. */
    private readonly laneFactory: () => RunDispatchLane,
    private readonly jobs: JobScheduler,
    private readonly logger: Logger,
    private readonly sharing: LaneSharing | null = null,
  ) {}

  async start(): Promise<void> {
    if (!this.sharing) return;
    const tick = () => {
      void this.balance()
        .catch((error: unknown) => {
          // A census cut by the worker's own shutdown (its database closing) is not worth a warning.
          if (!this.controller.signal.aborted) this.logger.warn({ err: error }, 'campaign lane census failed');
        })
        .finally(() => {
          if (!this.controller.signal.aborted) this.timer = setTimeout(tick, this.sharing!.censusMs).unref();
        });
    };
    this.timer = setTimeout(tick, this.sharing.censusMs).unref();
  }

  /** Starts the lane of a setor unless it runs here already (then it runs once more after). */
  wake(setorId: string): void {
    if (this.controller.signal.aborted) return;
    const current = this.running.get(setorId);
    if (current) {
      current.again = true;
      return;
    }
    const shedAt = this.shedAt.get(setorId);
    if (shedAt !== undefined && this.sharing && Date.now() - shedAt < 3 * this.sharing.censusMs) {
      // Handed over a moment ago: leave it to the others (a worker still starting may take a few seconds
      // to fetch it); only if none has, this worker takes it back.
      void this.requeue(setorId, new Date(Date.now() + this.sharing.censusMs));
      return;
    }
    this.shedAt.delete(setorId);
    const entry = { again: false, shed: new AbortController(), done: Promise.resolve() };
    entry.done = this.loop(setorId, entry).finally(() => this.running.delete(setorId));
    this.running.set(setorId, entry);
  }

  get active(): number {
    return this.running.size;
  }

  /**
   * Whether this worker (with `extra` more lanes) holds more than its share while another worker
   * holds less: only then is a lane better off elsewhere (when every worker is full, whoever
   * fetched a lane's job runs it).
   */
  private overShare(extra: number): boolean {
    if (!this.sharing || !Number.isFinite(this.fairShare)) return false;
    const { tolerance } = this.sharing;
    return this.running.size + extra > this.fairShare * (1 + tolerance) + 1 && this.fewestElsewhere < this.fairShare * (1 - tolerance);
  }

  /** One census: the fair share of the lanes, and the excess this worker hands over. */
  private async balance(): Promise<void> {
    const { owners, queued, workers } = await this.sharing!.census();
    for (const [setorId, at] of this.shedAt) if (Date.now() - at >= 3 * this.sharing!.censusMs) this.shedAt.delete(setorId);
    const perWorker = new Map<string, number>([[this.workerId, 0]]);
    for (const owner of owners) {
      const worker = owner.slice(0, owner.lastIndexOf(':'));
      perWorker.set(worker, (perWorker.get(worker) ?? 0) + 1);
    }
    // Lanes starting here hold no lease yet; lanes of ours the census saw are counted once. Lanes in
    // transit between workers hold no lease either but wait in the queue: counting them keeps a
    // hand-off from shrinking the share (which would start more hand-offs). A lane both held and
    // woken counts twice: the share errs on the high side, where workers keep what they have.
    const total = owners.length - (perWorker.get(this.workerId) ?? 0) + this.running.size + queued;
    const gone = [...this.holders].some((worker) => !perWorker.has(worker));
    this.holders = new Set([...perWorker].filter(([worker, n]) => n > 0 && worker !== this.workerId).map(([worker]) => worker));
    if (gone) await this.sharing!.orphansFound();
    // Connected workers that hold no lane are not in the leases: they hold none.
    const idle = Math.max(0, workers - perWorker.size);
    this.fairShare = total / (perWorker.size + idle);
    this.fewestElsewhere = idle > 0 ? 0 : Math.min(...[...perWorker].filter(([worker]) => worker !== this.workerId).map(([, n]) => n));
    // Only an excess seen by two censuses in a row (not a burst of new lanes), and half of it at a
    // time: the others' counts are as old as this census.
    const over = this.overShare(0);
    const persistent = over && this.overBefore;
    this.overBefore = over;
    let excess = Math.ceil((this.running.size - Math.ceil(this.fairShare)) / 2);
    if (!persistent || excess <= 0) return;
    for (const [setorId, entry] of this.running) {
      if (excess <= 0) break;
      if (entry.shed.signal.aborted) continue;
      this.shedAt.set(setorId, Date.now());
      entry.shed.abort();
      this.shedCount += 1;
      excess -= 1;
    }
  }

  private requeue(setorId: string, at: Date): Promise<void> {
    return this.jobs
      .enqueue(CampaignQueues.lane, { setorId }, { singletonKey: setorId, startAfter: at })
      .then(() => undefined)
      .catch((error: unknown) => {
        this.logger.error({ err: error, setorId }, 'could not reschedule a campaign lane; the sweep will wake it');
      });
  }

  private async loop(setorId: string, entry: { again: boolean; shed: AbortController }): Promise<void> {
    const signal = AbortSignal.any([this.controller.signal, entry.shed.signal]);
    for (;;) {
      entry.again = false;
      let result: LaneRunResult;
      try {
        this.laneInstance ??= this.laneFactory();
        result = await this.laneInstance.run(setorId, `${this.workerId}:${randomUUID()}`, signal);
      } catch (error) {
        this.logger.error({ err: error, setorId }, 'campaign lane failed; it will be retried');
        result = { outcome: 'yielded', sent: 0, failed: 0, rescheduleAt: new Date(Date.now() + 5_000) };
      }
      this.sent += result.sent;
      this.failed += result.failed;
      if (this.controller.signal.aborted) return;
      if (entry.shed.signal.aborted) {
        // Handed over: the lease is released, the next holder waits out the gap itself.
        await this.requeue(setorId, new Date());
        return;
      }
      // Held by another worker: look again when its lease would run out. That worker keeps the lane going
      // itself (a wake-up it receives while running makes it run once more); looking every 2 s, as before,
      // kept one job per lane bouncing between the workers (thousands of lanes: most of the database's work).
      const at = result.outcome === 'busy' ? new Date((result.rescheduleAt?.getTime() ?? Date.now()) + 250) : result.rescheduleAt;
      // The end of a slice with the next send close: run on here, unless this worker holds more than its share.
      const continueHere = result.outcome === 'yielded' && at !== null && at.getTime() <= Date.now() && !this.overShare(0);
      if (entry.again || continueHere) continue;
      if (at) await this.requeue(setorId, at);
      return;
    }
  }

  /** Stops every lane after its current send; their leases are released for other workers. */
  async stop(): Promise<void> {
    this.controller.abort();
    if (this.timer) clearTimeout(this.timer);
    await Promise.all([...this.running.values()].map((r) => r.done));
    this.logger.info({ sent: this.sent, failed: this.failed, shed: this.shedCount }, 'campaign lanes stopped');
  }
}
