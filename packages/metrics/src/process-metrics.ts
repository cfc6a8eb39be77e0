import { failureGroupOf, type CampaignSendObservation, type DeliveryUpdate, type DispatchObserver, type SendFailureCode } from '@carteiro/core';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { DatabaseSample, DatabaseSampler } from './database-sampler.js';

/** What a connection pool reports about itself (pg's `Pool`: totalCount, idleCount, waitingCount, options.max). */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

/** The names of the pools a process reports: ours (Kysely) and pg-boss's. */
export type PoolName = 'app' | 'queue';

/** How a channel send ended: `sent`, a classified failure code, or `exception` (the adapter threw). */
export type SendOutcomeLabel = 'sent' | SendFailureCode | 'exception';

const LATENESS_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const SEND_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const WEBHOOK_LAG_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600];

/** `"timestamp":"…"` near the start of an event envelope (the payload is fixed JSON written by the fan-out). */
const ENVELOPE_TIMESTAMP = /"timestamp":"([^"]{10,40})"/;

/**
 * The Prometheus metrics of one process. Every family is registered at construction, so a scrape lists
 * each one (the Grafana dashboard's test checks its queries against this list); the sources of the
 * sampled gauges (pools, lanes, queue tables) are attached by the composition roots. In the combined
 * process (ROLE=all) the API and the worker share one instance, so one `/metrics` shows both.
 *
 * Labels are bounded on purpose: outcome codes, queue names, pool names, result classes. Nothing is
 * labelled by company, setor, number, campaign or URL (docs/metrics.md).
 */
export class ProcessMetrics {
  readonly registry: Registry;

  private readonly channelSends: Counter<'outcome' | 'group'>;
  private readonly channelSendDuration: Histogram<'group'>;
  private readonly campaignSends: Counter<'outcome'>;
  private readonly laneLateness: Histogram;
  private readonly webhookAttempts: Counter<'result' | 'reason'>;
  private readonly webhookLag: Histogram;
  private readonly webhookAttemptDuration: Histogram<'result'>;

  private readonly sampleErrors: Counter;
  private readonly pools = new Map<PoolName, () => PoolStats | undefined>();
  private readonly laneSources = new Set<() => number>();
  private sampler: DatabaseSampler | null = null;

  // Labelled children resolved once per label value: a send then costs an increment, not a label hash.
  private readonly sendChildren = new Map<string, { count: { inc(): void }; duration: { observe(value: number): void } }>();
  private readonly campaignChildren = new Map<string, { inc(): void }>();

  /** The core's dispatch-lane port, recording into this process's metrics. */
  readonly dispatchObserver: DispatchObserver = {
    campaignSend: (observation: CampaignSendObservation) => {
      let child = this.campaignChildren.get(observation.outcome);
      if (!child) this.campaignChildren.set(observation.outcome, (child = this.campaignSends.labels({ outcome: observation.outcome })));
      child.inc();
      if (observation.lateMs !== null) this.laneLateness.observe(observation.lateMs / 1000);
    },
  };

  constructor(options: { registry?: Registry; defaultMetrics?: boolean } = {}) {
    this.registry = options.registry ?? new Registry();
    const registers = [this.registry];
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry, prefix: 'carteiro_' });

    const counter = <L extends string = never>(name: string, help: string, labelNames: readonly L[] = []) => new Counter<L>({ name, help, labelNames, registers });
    const histogram = <L extends string = never>(name: string, help: string, buckets: number[], labelNames: readonly L[] = []) =>
      new Histogram<L>({ name, help, labelNames, buckets, registers });

    this.channelSends = counter(
      'carteiro_channel_sends_total',
      'Messages handed to a channel (single sends, campaign sends, scheduled messages), by outcome: sent or the classified failure code, and its group.',
      ['outcome', 'group'],
    );
    this.channelSendDuration = histogram('carteiro_channel_send_duration_seconds', 'Time a channel send took, by outcome group.', SEND_BUCKETS, ['group']);
    this.campaignSends = counter(
      'carteiro_campaign_sends_total',
      'Campaign messages a dispatch lane handed to the channel, by outcome: sent or the classified failure code.',
      ['outcome'],
    );
    this.laneLateness = histogram(
      'carteiro_campaign_lane_lateness_seconds',
      "How late a campaign send started after its number's planned instant (actual gap minus planned gap; from the run's start when the lane was idle).",
      LATENESS_BUCKETS,
    );
    const laneSources = this.laneSources;
    new Gauge({
      name: 'carteiro_campaign_lanes_active',
      help: 'Dispatch lanes (one per sending number) running in this process.',
      registers,
      collect() {
        let total = 0;
        for (const source of laneSources) total += source();
        this.set(total);
      },
    });

    this.webhookAttempts = counter(
      'carteiro_webhook_attempts_total',
      'Webhook delivery attempts by result (succeeded, retry, failed) and reason (HTTP status class, timeout, network_error, inactive).',
      ['result', 'reason'],
    );
    this.webhookLag = histogram(
      'carteiro_webhook_delivery_lag_seconds',
      'Time from an event to its successful delivery (first round of attempts; redeliveries are not counted).',
      WEBHOOK_LAG_BUCKETS,
    );
    this.webhookAttemptDuration = histogram(
      'carteiro_webhook_attempt_duration_seconds',
      'Time a webhook receiver took to answer (or the attempt to fail), by result.',
      SEND_BUCKETS,
      ['result'],
    );

    const pools = this.pools;
    const poolGauge = (name: string, help: string, pick: (stats: PoolStats) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['pool'] as const,
        registers,
        collect() {
          this.reset();
          for (const [pool, source] of pools) {
            const stats = source();
            if (stats) this.set({ pool }, pick(stats));
          }
        },
      });
    poolGauge('carteiro_db_pool_connections', 'Open connections of a PostgreSQL pool of this process (app: ours, queue: pg-boss).', (s) => s.total);
    poolGauge('carteiro_db_pool_idle_connections', 'Open connections of a pool that are idle.', (s) => s.idle);
    poolGauge('carteiro_db_pool_waiting_requests', 'Queries waiting for a connection of a pool (the pool is exhausted while above 0).', (s) => s.waiting);
    poolGauge('carteiro_db_pool_max_connections', 'The size limit of a pool (DB_POOL_SIZE for app).', (s) => s.max);

    const sample = () => this.sampler?.sample() ?? Promise.resolve(null);
    this.sampleErrors = new Counter({
      name: 'carteiro_metrics_sample_errors_total',
      help: 'Scrapes whose database read (queue depths, webhook backlogs) failed; those gauges were left empty.',
      registers,
      // Waits for this scrape's read, so that its failure is counted in the same scrape.
      async collect() {
        await sample();
      },
    });
    /** A gauge filled at each scrape from the sampler's read: emptied first, left empty when the read failed. */
    const sampledGauge = <L extends string = never>(name: string, help: string, labelNames: readonly L[], fill: (gauge: Gauge<L>, found: DatabaseSample) => void) =>
      new Gauge<L>({
        name,
        help,
        labelNames,
        registers,
        async collect() {
          this.reset();
          const found = await sample();
          if (found) fill(this, found);
        },
      });
    sampledGauge('carteiro_queue_jobs', 'Jobs waiting in a pg-boss queue (whole database): ready (due now) or deferred (start_after in the future).', ['queue', 'state'], (gauge, found) => {
      for (const q of found.queues) {
        gauge.set({ queue: q.name, state: 'ready' }, q.ready);
        gauge.set({ queue: q.name, state: 'deferred' }, q.deferred);
      }
    });
    sampledGauge('carteiro_queue_oldest_ready_seconds', 'Age of the oldest due job no worker has taken yet, per pg-boss queue (0 when none is waiting).', ['queue'], (gauge, found) => {
      for (const q of found.queues) gauge.set({ queue: q.name }, q.oldestReadySeconds);
    });
    sampledGauge('carteiro_webhook_deliveries_pending', 'Webhook deliveries not finished yet (whole database): due (an attempt is owed now) or scheduled (a retry later).', ['state'], (gauge, found) => {
      if (found.webhooks) {
        gauge.set({ state: 'due' }, found.webhooks.due);
        gauge.set({ state: 'scheduled' }, found.webhooks.scheduled);
      }
    });
    sampledGauge('carteiro_webhook_oldest_due_seconds', 'How long the oldest due webhook delivery has been waiting for its attempt (0 when none).', [], (gauge, found) => {
      if (found.webhooks) gauge.set(found.webhooks.oldestDueSeconds);
    });
    sampledGauge('carteiro_webhook_outbox_backlog', 'Domain events waiting for the webhook fan-out (whole database).', [], (gauge, found) => {
      if (found.outboxBacklog !== undefined && found.outboxBacklog !== null) gauge.set(found.outboxBacklog);
    });
  }

  /** Counts one channel send (the instrumented gateway calls it). */
  channelSend(outcome: SendOutcomeLabel, seconds: number): void {
    let child = this.sendChildren.get(outcome);
    if (!child) {
      const group = outcome === 'sent' ? 'sent' : outcome === 'exception' ? 'other' : failureGroupOf(outcome);
      child = { count: this.channelSends.labels({ outcome, group }), duration: this.channelSendDuration.labels({ group }) };
      this.sendChildren.set(outcome, child);
    }
    child.count.inc();
    child.duration.observe(seconds);
  }

  /** Counts one stored webhook attempt (or an abandoned delivery) and, on success, the event's lag. */
  webhookAttempt(update: DeliveryUpdate, at: Date): void {
    const { delivery, attempt } = update;
    if (!attempt) {
      this.webhookAttempts.inc({ result: delivery.status === 'failed' ? 'failed' : 'retry', reason: 'inactive' });
      return;
    }
    const reason = attempt.statusCode !== null ? `${Math.floor(attempt.statusCode / 100)}xx` : attempt.error?.startsWith('timeout') ? 'timeout' : 'network_error';
    this.webhookAttempts.inc({ result: attempt.result, reason });
    this.webhookAttemptDuration.observe({ result: attempt.result }, attempt.durationMs / 1000);
    // A redelivery (attempts beyond the current round) would report the operator's delay, not the system's.
    if (attempt.result === 'succeeded' && delivery.attempts === delivery.roundAttempts) {
      const stamp = ENVELOPE_TIMESTAMP.exec(delivery.payload.slice(0, 300))?.[1];
      const occurred = stamp ? Date.parse(stamp) : Number.NaN;
      const from = Number.isNaN(occurred) ? delivery.createdAt.getTime() : occurred;
      this.webhookLag.observe(Math.max(0, at.getTime() - from) / 1000);
    }
  }

  /** Reports a connection pool (idempotent per name: the combined process attaches its shared pools once). */
  attachPool(name: PoolName, stats: () => PoolStats | undefined): void {
    if (!this.pools.has(name)) this.pools.set(name, stats);
  }

  /** Reports the dispatch lanes running in this process. */
  attachLanes(count: () => number): void {
    this.laneSources.add(count);
  }

  /** Counts a failed database read of the sampler. */
  sampleFailed(): void {
    this.sampleErrors.inc();
  }

  /** Reports the queue and webhook backlogs read from the database (first sampler wins). */
  attachSampler(sampler: DatabaseSampler): void {
    this.sampler ??= sampler;
  }
}

/** What pg's `Pool` exposes (structural: no pg import here). */
export interface PgPoolLike {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  options?: { max?: number };
}

export function pgPoolStats(pool: PgPoolLike | undefined | null): PoolStats | undefined {
  if (!pool) return undefined;
  return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options?.max ?? 0 };
}
