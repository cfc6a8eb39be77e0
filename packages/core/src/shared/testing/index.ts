// The kernel's test kit: fakes and helpers that know no area (each area's fakes live beside it,
// in `<area>/testing/`; the in-memory composition of them all is `src/testing/`).
export * from './manual-clock.js';
export * from './deterministic.js';
export * from './decider-spec.js';
export * from './in-memory-store.js';
export * from './in-memory-event-outbox.js';
export * from './in-memory-job-scheduler.js';
export * from './contract-suite.js';
export * from './read-until.js';
