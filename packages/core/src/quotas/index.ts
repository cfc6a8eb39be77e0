export * from './quota.js';
export * from './quota-usage.js';
