// The small arithmetic every benchmark shares: sizes from the environment, nearest-rank percentiles, rounding, waiting, timing.
import { performance } from 'node:perf_hooks';

/** A numeric setting from the environment, or its default. */
export const env = (name: string, fallback: number): number => (process.env[name] ? Number(process.env[name]) : fallback);

/** The nearest-rank percentile of values sorted ascending (NaN when there are none). */
export const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;

/** The median of values in any order. */
export const median = (values: readonly number[]): number => percentile([...values].sort((a, b) => a - b), 50);

/** `n` rounded to `digits` decimals. */
export const round = (n: number, digits = 1): number => Math.round(n * 10 ** digits) / 10 ** digits;

/** Polls `check` until it holds, or throws once `timeoutMs` has passed. */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, everyMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('benchmark timed out');
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** The median and p99, in ms, of a benchmark's `queries` timed queries of one kind. */
export interface QueryLatency {
  queries: number;
  medianMs: number;
  p99Ms: number;
}

/** Median, p95 and p99 of latencies in milliseconds, in any order, rounded to `digits` decimals. */
export function latencies(times: readonly number[], digits = 2): { medianMs: number; p95Ms: number; p99Ms: number } {
  const sorted = [...times].sort((a, b) => a - b);
  return { medianMs: round(percentile(sorted, 50), digits), p95Ms: round(percentile(sorted, 95), digits), p99Ms: round(percentile(sorted, 99), digits) };
}

/** How long each of `runs` calls of `work` took, one after the other, in ms. */
export async function timed(runs: number, work: (i: number) => unknown): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    await work(i);
    times.push(performance.now() - started);
  }
  return times;
}
