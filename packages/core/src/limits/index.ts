export * from './get-limits.js';
