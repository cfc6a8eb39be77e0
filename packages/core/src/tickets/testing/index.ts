export * from './in-memory-ticket-repositories.js';
export * from './ticket-repositories.contract.js';
export * from './in-memory-ticket-reply-repositories.js';
export * from './ticket-reply-repositories.contract.js';
