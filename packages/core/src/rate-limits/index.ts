export * from './rate-limit-policy.js';
export * from './rate-limiter.js';
