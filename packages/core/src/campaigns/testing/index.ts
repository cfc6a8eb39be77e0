export * from './campaign-fixtures.js';
export * from './campaign-repositories.contract.js';
export * from './in-memory-campaign-repositories.js';
export * from './manual-sleeper.js';
