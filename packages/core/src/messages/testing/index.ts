export * from './in-memory-message-repositories.js';
