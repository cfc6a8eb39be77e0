export * from './system-adapters.js';
export * from './config.js';
export * from './system.module.js';
