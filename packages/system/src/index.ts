export * from './system-adapters.js';
export * from './config.js';
export * from './system.module.js';
export * from './bind-singleton.js';
