export * from './foundation-repositories.contract.js';
export * from './contact-repositories.contract.js';
export * from './webhook-repositories.contract.js';
export * from './channel-repositories.contract.js';
export * from './channel-gateway.contract.js';
export * from './campaign-repositories.contract.js';
export * from './request-gate.contract.js';
