export * from './in-memory-company-repositories.js';
export * from './contract-cases.js';
