export * from './foundation-repositories.contract.js';
export * from './contact-repositories.contract.js';
export * from './webhook-repositories.contract.js';
