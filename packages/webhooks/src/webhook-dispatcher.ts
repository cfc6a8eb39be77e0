import type { ClaimedDelivery, DeliverWebhooks, DeliveryUpdate, FanOutEvents } from '@carteiro/core';

/** Something that says "there may be new work" (PostgreSQL LISTEN/NOTIFY in production). */
export interface WakeSource {
  /** Calls `listener` on each signal until the returned function is called. */
  subscribe(listener: () => void): Promise<() => Promise<void>>;
}

export interface DispatcherOptions {
  /** Attempts in flight at once. */
  concurrency: number;
  /** Events fanned out per transaction. */
  fanOutBatch: number;
  /** How long a worker holds a delivery it took; another worker takes it over afterwards. */
  leaseMs: number;
  /** Fallback when no signal arrives (a lost notification, another process's retry falling due). */
  pollIntervalMs: number;
  /** Outcomes are stored in batches of at most this many, one transaction each. */
  saveBatch: number;
}

export const defaultDispatcherOptions: DispatcherOptions = {
  concurrency: 64,
  fanOutBatch: 200,
  leaseMs: 120_000,
  pollIntervalMs: 2_000,
  saveBatch: 500,
};

export interface DispatcherLogger {
  error(message: string, error: unknown): void;
}

/**
 * The delivery loop of a worker: on each signal (and on a timer) it fans out queued outbox events
 * into deliveries, takes due deliveries (retries, redeliveries, ones a dead worker held), makes
 * their attempts with bounded concurrency over keep-alive connections, and stores the outcomes
 * in batches. Any number of workers may run it against one database.
 */
export class WebhookDispatcher {
  private readonly options: DispatcherOptions;
  private running = false;
  private pumping = false;
  private again = false;
  private inFlight = 0;
  private backlog: ClaimedDelivery[] = [];
  private outcomes: DeliveryUpdate[] = [];
  private saving: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => Promise<void>) | null = null;
  private idle: (() => void)[] = [];

  constructor(
    private readonly fanOut: FanOutEvents,
    private readonly deliver: DeliverWebhooks,
    private readonly wake: WakeSource | null,
    options: Partial<DispatcherOptions> = {},
    private readonly logger: DispatcherLogger = { error: (message, error) => console.error(message, error) },
  ) {
    this.options = { ...defaultDispatcherOptions, ...options };
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    if (this.wake) this.unsubscribe = await this.wake.subscribe(() => this.kick());
    this.kick();
  }

  /** Stops taking work, waits for the attempts in flight and stores their outcomes. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.unsubscribe?.();
    this.unsubscribe = null;
    while (this.inFlight > 0 || this.pumping) await new Promise<void>((resolve) => this.idle.push(resolve));
    // Deliveries taken but not started stay leased; another worker takes them when the lease ends.
    this.backlog = [];
    await this.flush();
  }

  /** Asks for a pass now (a signal, a timer, or a caller that just created work). */
  kick(): void {
    if (!this.running) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    void this.pump();
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    try {
      do {
        this.again = false;
        let found = true;
        while (this.running && found) {
          found = false;
          const room = this.maxBacklog - this.backlog.length;
          if (room > 0) {
            const fanned = await this.fanOut.execute({ limit: Math.min(this.options.fanOutBatch, room), leaseMs: this.options.leaseMs });
            this.backlog.push(...fanned.deliveries);
            found ||= fanned.events > 0;
          }
          const free = this.maxBacklog - this.backlog.length;
          if (free > 0) {
            const claimed = await this.deliver.claim(free, this.options.leaseMs);
            this.backlog.push(...claimed);
            found ||= claimed.length > 0;
          }
          this.startAttempts();
          // Full: wait for attempts to finish before taking more (they kick when they do).
          if (this.backlog.length >= this.options.concurrency) break;
          // Nothing new came: the rest waits for a signal or the timer.
          if (!found) break;
        }
      } while (this.again && this.running);
      if (this.running) await this.scheduleTimer();
    } catch (error) {
      this.logger.error('webhook dispatcher pass failed', error);
      if (this.running) this.setTimer(this.options.pollIntervalMs);
    } finally {
      this.pumping = false;
      this.notifyIdle();
    }
  }

  private async scheduleTimer(): Promise<void> {
    const next = await this.deliver.nextWakeUp();
    const untilNext = next ? Math.max(0, next.getTime() - Date.now()) : this.options.pollIntervalMs;
    this.setTimer(Math.min(untilNext, this.options.pollIntervalMs));
  }

  private setTimer(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.kick();
    }, ms);
    this.timer.unref?.();
  }

  private startAttempts(): void {
    while (this.inFlight < this.options.concurrency && this.backlog.length > 0) {
      const claimed = this.backlog.shift()!;
      this.inFlight += 1;
      this.deliver
        .attempt(claimed)
        .then(
          (update) => this.outcomes.push(update),
          (error: unknown) => this.logger.error(`webhook delivery ${claimed.delivery.id} attempt failed`, error),
        )
        .finally(() => {
          this.inFlight -= 1;
          void this.flush();
          if (this.running) {
            this.startAttempts();
            // Refill in large batches, not one transaction per finished attempt.
            if (this.backlog.length < this.options.concurrency) this.kick();
          }
          this.notifyIdle();
        });
    }
  }

  /** Stores collected outcomes, one batch at a time; failed batches are kept for the next try. */
  private flush(): Promise<void> {
    if (this.saving) return this.saving;
    if (this.outcomes.length === 0) return Promise.resolve();
    const run = async () => {
      while (this.outcomes.length > 0) {
        const batch = this.outcomes.splice(0, this.options.saveBatch);
        try {
          await this.deliver.save(batch);
        } catch (error) {
          this.outcomes.unshift(...batch);
          this.logger.error('storing webhook outcomes failed', error);
          if (!this.running) return;
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      }
    };
    this.saving = run().finally(() => {
      this.saving = null;
      // A retry may be due sooner than the timer that was set before this outcome existed.
      if (this.running && !this.pumping) void this.scheduleTimer().catch(() => undefined);
    });
    return this.saving;
  }

  private notifyIdle(): void {
    if (this.inFlight > 0 || this.pumping) return;
    for (const resolve of this.idle.splice(0)) resolve();
  }

  /** Deliveries held locally (taken, not yet started): bounded so that leases do not run out while waiting. */
  private get maxBacklog(): number {
    return this.options.concurrency * 3;
  }

  /** Attempts in flight, for metrics and tests. */
  get activeAttempts(): number {
    return this.inFlight;
  }
}
