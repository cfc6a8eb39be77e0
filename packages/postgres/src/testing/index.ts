export * from './test-database.js';
export * from './query-plans.js';
