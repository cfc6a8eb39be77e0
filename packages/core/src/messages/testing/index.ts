export * from './in-memory-message-repositories.js';
export * from './message-repositories.contract.js';
