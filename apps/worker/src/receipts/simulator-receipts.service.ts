import { inject, injectable } from 'inversify';
import { Clock, DeliverSimulatedReceipts, IdGenerator, UnitOfWork } from '@carteiro/core';
import type { ServiceUnitOfWork } from '@carteiro/postgres';
import { AppConfig, type Config } from '@carteiro/system';
import type { BackgroundService } from '../jobs/job-handler.js';
import { Logger } from '../tokens.js';

/** How often the sweep looks for due receipts at most (the delay itself is usually 1 s). */
const MAX_SWEEP_INTERVAL_MS = 500;

/**
 * The simulator's delivery receipts (`SIMULATOR_RECEIPT_DELAY_MS`, operations of conversations.md
 * §10): one loop per worker process sweeps the simulator outbox for sends made at least the delay
 * ago whose receipt is still owed (`receipt_pending`, claimed with SKIP LOCKED so several workers
 * share them) and records them delivered. No timer per message and nothing in memory: a send made
 * by any process is delivered by whichever worker sweeps next, after a restart too. 0 turns it off.
 */
@injectable()
export class SimulatorReceiptsService implements BackgroundService {
  readonly name = 'simulator-receipts';
  private readonly sweeper: DeliverSimulatedReceipts;
  private readonly delayMs: number;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    @inject(UnitOfWork) uow: ServiceUnitOfWork,
    @inject(Clock) clock: Clock,
    @inject(IdGenerator) ids: IdGenerator,
    @inject(AppConfig) config: Config,
    @inject(Logger) private readonly logger: Logger,
  ) {
    this.sweeper = new DeliverSimulatedReceipts(uow, clock, ids);
    this.delayMs = config.simulatorReceiptDelayMs;
  }

  async start(): Promise<void> {
    if (this.delayMs <= 0) return;
    this.stopped = false;
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    const interval = Math.max(50, Math.min(this.delayMs / 2, MAX_SWEEP_INTERVAL_MS));
    this.timer = setTimeout(() => {
      this.running = this.sweeper
        .sweep(this.delayMs)
        .then(() => undefined)
        .catch((error: unknown) => this.logger.warn({ err: error }, 'simulator receipts sweep failed; retrying'))
        .finally(() => {
          this.running = null;
          this.schedule();
        });
    }, interval);
    this.timer.unref();
  }
}
