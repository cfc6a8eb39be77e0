export * from './send-credits.js';
