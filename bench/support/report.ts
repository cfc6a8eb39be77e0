// What a benchmark hands bench/run.ts for docs/benchmarks.md (its summary rows and its section), and how it runs alone.
import path from 'node:path';

/** One row of the summary table of docs/benchmarks.md. */
export interface SummaryRow {
  figure: string;
  result: string;
  baseline: string;
  target: string;
  ok: boolean | null;
}

/**
 * A benchmark's section of docs/benchmarks.md: `## title`, the lines saying what it measures, then
 * its figures as `| Figure | Result |` rows, or why it did not run when there are none.
 */
export function benchSection(title: string, about: readonly string[], figures: readonly string[] | null, error?: string): string[] {
  const L = [`## ${title}`, '', ...about, ''];
  if (figures) L.push('| Figure | Result |', '|---|---|', ...figures, '');
  else L.push(`Did not run: ${error ?? 'skipped'}`, '');
  return L;
}

/** Runs the benchmark and prints its result as JSON when its module is the script node started (`node … bench/<name>.bench.ts`). */
export function runWhenMain(moduleUrl: string, run: () => Promise<unknown>): void {
  if (!process.argv[1] || path.resolve(process.argv[1]) !== path.resolve(new URL(moduleUrl).pathname)) return;
  run()
    .then((r) => console.log(JSON.stringify(r, null, 2)))
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
}
