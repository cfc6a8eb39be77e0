export * from './billing.js';
export * from './billing-repository.js';
export * from './billing-use-cases.js';
export * from './debit-credits.js';
