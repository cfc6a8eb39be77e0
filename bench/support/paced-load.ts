// An open-loop load at a fixed rate, for latency targets stated "at N req/s".
//
// autocannon's `overallRate` gives each connection a quota per second and resets the quotas on a 1 s timer: every
// connection sends its quota back to back at the start of each second (10 connections at 200 req/s: 10 requests in
// flight for the first ~0.2-0.4 s of each second, then none). Its latencies are those of a burst of 10 concurrent
// clients, not of 200 req/s. Here the requests start at the times of the rate (evenly spaced, or Poisson arrivals),
// each on a free keep-alive socket, whatever the earlier ones are doing.
//
// What is timed: from the request's scheduled start to the end of its answer, minus only the generator's own lateness
// (its timer firing late because this process was busy or descheduled: that is the client's delay, not the service's).
// A request that had to wait for a socket (every socket busy: the service is behind) is timed from its scheduled start,
// so a slow service is never measured at a slower rate than the one offered (no coordinated omission).
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { seededGenerator } from '@carteiro/core';

export interface PacedLoadOptions {
  url: string;
  headers?: Record<string, string>;
  /** Requests per second offered. */
  rate: number;
  seconds: number;
  /** 'even': one every 1/rate s; 'poisson': independent arrivals at that mean rate (a seeded generator: runs repeat). */
  arrivals?: 'even' | 'poisson';
  /** Keep-alive sockets at most (64): only a service that is far behind makes requests wait for one. */
  maxSockets?: number;
  seed?: number;
}

export interface PacedLoadResult {
  requests: number;
  /** Answers other than 2xx, and socket errors. */
  failures: number;
  firstFailure: string | null;
  /** Seconds from the first scheduled start to the last answer. */
  duration: number;
  /** Latencies in ms (sorted): scheduled start (less the generator's lateness) to the end of the answer. */
  latencies: number[];
  /** How late the generator's timer fired, ms (sorted): not counted in the latencies. */
  generatorLagMs: number[];
  /** Requests that waited for a free socket. */
  queuedForSocket: number;
  /** Body bytes of the last answer. */
  bodyBytes: number;
}

export function sortedPercentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Runs the load; resolves when every request has been answered. */
export async function pacedLoad(options: PacedLoadOptions): Promise<PacedLoadResult> {
  const target = new URL(options.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 64 });
  // Seeded: the same arrivals in every run and both A/B sides.
  const random = seededGenerator(options.seed ?? 12);
  const total = Math.max(1, Math.round(options.rate * options.seconds));
  const interval = 1000 / options.rate;
  // Scheduled offsets from the start, ms.
  const offsets: number[] = [];
  let at = 0;
  for (let i = 0; i < total; i += 1) {
    offsets.push(at);
    at += options.arrivals === 'poisson' ? -Math.log(1 - random()) * interval : interval;
  }
  const latencies: number[] = [];
  const lags: number[] = [];
  let failures = 0;
  let firstFailure: string | null = null;
  let queuedForSocket = 0;
  let bodyBytes = 0;
  let done = 0;
  let inFlight = 0;
  const start = performance.now() + 20;
  let lastEnd = start;

  await new Promise<void>((resolve) => {
    const finish = () => {
      done += 1;
      inFlight -= 1;
      if (done === total) resolve();
    };
    const send = (scheduled: number, lag: number) => {
      // Every socket busy: this request waits for one, and that wait is the service's.
      if (inFlight >= (options.maxSockets ?? 64)) queuedForSocket += 1;
      inFlight += 1;
      const request = http.request(
        { agent, host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: 'GET', headers: options.headers },
        (res) => {
          let bytes = 0;
          res.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
          });
          res.on('end', () => {
            const end = performance.now();
            lastEnd = Math.max(lastEnd, end);
            latencies.push(end - scheduled - lag);
            bodyBytes = bytes;
            if (res.statusCode === undefined || res.statusCode < 200 || res.statusCode >= 300) {
              failures += 1;
              firstFailure ??= `status ${res.statusCode}`;
            }
            finish();
          });
        },
      );
      request.on('error', (error) => {
        failures += 1;
        firstFailure ??= error.message;
        finish();
      });
      request.end();
    };
    let next = 0;
    const tick = () => {
      const now = performance.now();
      // Every request due by now starts now; the first of them was due `now - its time` ago: that much of the
      // lateness is the generator's (a timer fires at 1 ms granularity at best, later when this process is busy).
      while (next < total && start + offsets[next]! <= now) {
        const scheduled = start + offsets[next]!;
        const lag = now - scheduled;
        lags.push(lag);
        send(scheduled, lag);
        next += 1;
      }
      if (next < total) setTimeout(tick, Math.max(0, start + offsets[next]! - performance.now()));
    };
    setTimeout(tick, Math.max(0, start - performance.now()));
  });
  agent.destroy();
  latencies.sort((a, b) => a - b);
  lags.sort((a, b) => a - b);
  return { requests: total, failures, firstFailure, duration: (lastEnd - start) / 1000, latencies, generatorLagMs: lags, queuedForSocket, bodyBytes };
}
