export * from './in-memory-message-repositories.js';
export * from './messaging-world.js';
