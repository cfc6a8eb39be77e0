import { writeSync } from 'node:fs';

// Ends the run with a plain 'N passed, N failed' line, after jest's own summary, that any CI can read.
export default class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const line = `${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`;
    process.once('exit', () => writeSync(1, line));
  }
}
