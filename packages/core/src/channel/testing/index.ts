export * from './channel-gateway.contract.js';
export * from './channel-repositories.contract.js';
export * from './fake-channel-gateway.js';
export * from './in-memory-channel-health-repository.js';
export * from './in-memory-channel-instance-repository.js';
export * from './in-memory-channel-simulator-store.js';
export * from './in-memory-conversation-window-repository.js';
export * from './in-memory-channel-repositories.js';
