import { describe, expect, it } from '@jest/globals';
import type { ChannelGateway, DeliveryUpdate, SendRequest, WebhookDelivery } from '@carteiro/core';
import { Kysely, PostgresDialect } from 'kysely';
import { attachDatabaseMetrics } from './database-metrics.js';
import { instrumentGateway } from './instrumented-gateway.js';
import { ProcessMetrics } from './process-metrics.js';

const text = (metrics: ProcessMetrics) => metrics.registry.metrics();

function delivery(fields: Partial<WebhookDelivery> = {}): WebhookDelivery {
  const at = new Date('2026-01-15T18:00:00.000Z');
  return {
    id: 'd1',
    companyId: 'c1',
    webhookId: 'w1',
    callbackUrl: null,
    eventId: 'e1',
    event: 'message.sent',
    payload: JSON.stringify({ event: 'message.sent', version: 'v1', timestamp: '2026-01-15T17:59:58.500Z', data: {} }),
    status: 'succeeded',
    attempts: 1,
    roundAttempts: 1,
    nextAttemptAt: null,
    lockedUntil: null,
    lastStatusCode: 200,
    lastError: null,
    createdAt: at,
    updatedAt: at,
    completedAt: at,
    ...fields,
  } as WebhookDelivery;
}

function update(d: WebhookDelivery, result: 'succeeded' | 'retry' | 'failed', statusCode: number | null, error: string | null = null): DeliveryUpdate {
  return { delivery: d, attempt: { deliveryId: d.id, number: d.attempts, startedAt: d.updatedAt, durationMs: 120, statusCode, error, result } };
}

describe('process metrics', () => {
  it('registers every family at construction, so that a scrape lists each one before anything happened', async () => {
    const names = (await new ProcessMetrics({ defaultMetrics: false }).registry.getMetricsAsJSON()).map((m) => m.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'carteiro_channel_sends_total',
        'carteiro_channel_send_duration_seconds',
        'carteiro_campaign_sends_total',
        'carteiro_campaign_lane_lateness_seconds',
        'carteiro_campaign_lanes_active',
        'carteiro_webhook_attempts_total',
        'carteiro_webhook_delivery_lag_seconds',
        'carteiro_webhook_attempt_duration_seconds',
        'carteiro_db_pool_connections',
        'carteiro_db_pool_idle_connections',
        'carteiro_db_pool_waiting_requests',
        'carteiro_db_pool_max_connections',
        'carteiro_queue_jobs',
        'carteiro_queue_oldest_ready_seconds',
        'carteiro_webhook_deliveries_pending',
        'carteiro_webhook_oldest_due_seconds',
        'carteiro_webhook_outbox_backlog',
        'carteiro_metrics_sample_errors_total',
      ]),
    );
  });

  it('counts gateway sends by outcome and group, and a throwing adapter as exception', async () => {
    const metrics = new ProcessMetrics({ defaultMetrics: false });
    let answer: 'ok' | 'blocked' | 'throw' = 'ok';
    const gateway = {
      marker: 42,
      async send() {
        if (answer === 'throw') throw new Error('boom');
        return answer === 'ok' ? { ok: true, providerMessageId: 'p1', sentAt: new Date() } : { ok: false, code: 'RECIP_BLOCKED', error: 'blocked', providerFailure: false };
      },
      capabilities() {
        return 'caps';
      },
    } as unknown as ChannelGateway & { marker: number };
    const counted = instrumentGateway(gateway, metrics) as ChannelGateway & { marker: number };
    const request = {} as SendRequest;
    await counted.send(request);
    await counted.send(request);
    answer = 'blocked';
    await counted.send(request);
    answer = 'throw';
    await expect(counted.send(request)).rejects.toThrow('boom');
    // Everything else reaches the gateway itself.
    expect(counted.marker).toBe(42);
    expect(counted.capabilities({} as never, 'live')).toBe('caps');
    const out = await text(metrics);
    expect(out).toContain('carteiro_channel_sends_total{outcome="sent",group="sent"} 2');
    expect(out).toContain('carteiro_channel_sends_total{outcome="RECIP_BLOCKED",group="recipient"} 1');
    expect(out).toContain('carteiro_channel_sends_total{outcome="exception",group="other"} 1');
    expect(out).toContain('carteiro_channel_send_duration_seconds_count{group="sent"} 2');
  });

  it('records lane sends and their lateness, leaving the first send of a number out of the histogram', async () => {
    const metrics = new ProcessMetrics({ defaultMetrics: false });
    metrics.dispatchObserver.campaignSend({ outcome: 'sent', lateMs: null });
    metrics.dispatchObserver.campaignSend({ outcome: 'sent', lateMs: 40 });
    metrics.dispatchObserver.campaignSend({ outcome: 'TEMP_TIMEOUT', lateMs: 300 });
    const out = await text(metrics);
    expect(out).toContain('carteiro_campaign_sends_total{outcome="sent"} 2');
    expect(out).toContain('carteiro_campaign_sends_total{outcome="TEMP_TIMEOUT"} 1');
    expect(out).toContain('carteiro_campaign_lane_lateness_seconds_bucket{le="0.05"} 1');
    expect(out).toContain('carteiro_campaign_lane_lateness_seconds_bucket{le="0.5"} 2');
    expect(out).toContain('carteiro_campaign_lane_lateness_seconds_count 2');
  });

  it('counts webhook attempts by result and reason, and the lag from the event to a first-round success', async () => {
    const metrics = new ProcessMetrics({ defaultMetrics: false });
    const at = new Date('2026-01-15T18:00:00.000Z');
    metrics.webhookAttempt(update(delivery(), 'succeeded', 200), at);
    metrics.webhookAttempt(update(delivery({ status: 'pending' }), 'retry', 503), at);
    metrics.webhookAttempt(update(delivery({ status: 'pending' }), 'retry', null, 'timeout: no answer within 5 seconds'), at);
    metrics.webhookAttempt(update(delivery({ status: 'failed' }), 'failed', null, 'connect ECONNREFUSED'), at);
    // A redelivery the operator asked for an hour later: counted, but its lag is not the system's.
    metrics.webhookAttempt(update(delivery({ attempts: 6, roundAttempts: 1 }), 'succeeded', 204), new Date(at.getTime() + 3_600_000));
    metrics.webhookAttempt({ delivery: delivery({ status: 'failed' }), attempt: null }, at);
    const out = await text(metrics);
    expect(out).toContain('carteiro_webhook_attempts_total{result="succeeded",reason="2xx"} 2');
    expect(out).toContain('carteiro_webhook_attempts_total{result="retry",reason="5xx"} 1');
    expect(out).toContain('carteiro_webhook_attempts_total{result="retry",reason="timeout"} 1');
    expect(out).toContain('carteiro_webhook_attempts_total{result="failed",reason="network_error"} 1');
    expect(out).toContain('carteiro_webhook_attempts_total{result="failed",reason="inactive"} 1');
    expect(out).toContain('carteiro_webhook_delivery_lag_seconds_count 1');
    expect(out).toContain('carteiro_webhook_delivery_lag_seconds_sum 1.5');
  });

  it('reports attached pools and lanes at scrape time, a pool once however often it is attached', async () => {
    const metrics = new ProcessMetrics({ defaultMetrics: false });
    const pool = { totalCount: 7, idleCount: 3, waitingCount: 2, options: { max: 20 } };
    metrics.attachPool('app', () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max }));
    metrics.attachPool('app', () => ({ total: 999, idle: 0, waiting: 0, max: 0 }));
    let lanes = 4;
    metrics.attachLanes(() => lanes);
    let out = await text(metrics);
    expect(out).toContain('carteiro_db_pool_connections{pool="app"} 7');
    expect(out).toContain('carteiro_db_pool_idle_connections{pool="app"} 3');
    expect(out).toContain('carteiro_db_pool_waiting_requests{pool="app"} 2');
    expect(out).toContain('carteiro_db_pool_max_connections{pool="app"} 20');
    expect(out).toContain('carteiro_campaign_lanes_active 4');
    pool.totalCount = 9;
    lanes = 1;
    out = await text(metrics);
    expect(out).toContain('carteiro_db_pool_connections{pool="app"} 9');
    expect(out).toContain('carteiro_campaign_lanes_active 1');
  });
});

it('counts a failed database read and leaves the sampled gauges empty for that scrape', async () => {
  const metrics = new ProcessMetrics({ defaultMetrics: false });
  // A pool whose every connection attempt fails, as when the database is down.
  const pool = { connect: () => Promise.reject(new Error('connection refused')), end: () => Promise.resolve() };
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: pool as never }) });
  attachDatabaseMetrics(metrics, { db, appPool: undefined });
  const out = await text(metrics);
  expect(out).toContain('carteiro_metrics_sample_errors_total 1');
  expect(out).not.toMatch(/^carteiro_queue_jobs\{/m);
});
