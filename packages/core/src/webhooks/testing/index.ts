export * from './fake-webhook-sender.js';
export * from './in-memory-webhook-repositories.js';
export * from './webhook-repositories.contract.js';
