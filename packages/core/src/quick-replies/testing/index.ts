export * from './in-memory-quick-reply-repositories.js';
export * from './quick-reply-repositories.contract.js';
