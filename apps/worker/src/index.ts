export * from './composition-root.js';
export * from './worker.js';
export * from './jobs/job-handler.js';
export * from './housekeeping/housekeeping.job.js';
export * from './tokens.js';
