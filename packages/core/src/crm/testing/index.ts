export * from './crm-repositories.contract.js';
export * from './in-memory-crm-repositories.js';
