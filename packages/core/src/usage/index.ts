export * from './usage-repositories.js';
export * from './usage-repository.js';
