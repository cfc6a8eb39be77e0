export * from './in-memory-api-key-repositories.js';
export * from './in-memory-request-gate.js';
export * from './request-gate.contract.js';
