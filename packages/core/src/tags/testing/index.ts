export * from './in-memory-tag-repositories.js';
export * from './tag-repositories.contract.js';
