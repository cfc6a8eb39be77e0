export * from './in-memory-receipt-repositories.js';
