export * from './in-memory-lead-repositories.js';
export * from './fake-dns-resolver.js';
export * from './lead-billing-repositories.contract.js';
