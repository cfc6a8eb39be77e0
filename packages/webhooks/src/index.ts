export * from './address-policy.js';
export * from './url-safety.js';
export * from './http-webhook-sender.js';
export * from './webhook-dispatcher.js';
export * from './webhooks-adapters.module.js';
