export * from './in-memory-team-repositories.js';
