export * from './in-memory-agent-repositories.js';
export * from './agent-repositories.contract.js';
