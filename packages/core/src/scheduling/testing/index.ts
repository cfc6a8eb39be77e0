export * from './in-memory-scheduling-repositories.js';
export * from './scheduling-repositories.contract.js';
