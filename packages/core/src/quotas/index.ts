export * from './quota.js';
