export * from './foundation-repositories.contract.js';
export * from './webhook-repositories.contract.js';
