export * from './in-memory-usage-repositories.js';
