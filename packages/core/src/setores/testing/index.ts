export * from './in-memory-setor-repositories.js';
