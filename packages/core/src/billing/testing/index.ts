export * from './in-memory-billing-repositories.js';
