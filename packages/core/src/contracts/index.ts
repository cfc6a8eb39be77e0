export * from './contract-renderer.js';
export * from './contract-repositories.js';
export * from './contract-template.js';
export * from './contract.js';
export * from './signing-provider.js';
