export * from './manual-clock.js';
export * from './deterministic.js';
export * from './in-memory-store.js';
export * from './in-memory-foundation-repositories.js';
export * from './in-memory-unit-of-work.js';
export * from './in-memory-rate-limiter.js';
export * from './contracts/index.js';
