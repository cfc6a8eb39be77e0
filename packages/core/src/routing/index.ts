export * from './rotation-cursor-repository.js';
export * from './routing-repositories.js';
export * from './sender-pool.js';
