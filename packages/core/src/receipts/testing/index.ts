export * from './in-memory-receipt-repositories.js';
export * from './receipt-repositories.contract.js';
