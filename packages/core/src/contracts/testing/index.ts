export * from './contract-repositories.contract.js';
export * from './fake-contract-renderer.js';
export * from './fake-signing-provider.js';
export * from './in-memory-contract-repositories.js';
