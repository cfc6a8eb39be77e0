export * from './message-receipt-repository.js';
export * from './receipt-repositories.js';
export * from './receipt.js';
export * from './record-receipt.js';
export * from './receive-provider-webhook.js';
