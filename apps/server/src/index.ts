export * from './database.js';
export * from './first-start.js';
export * from './logger.js';
