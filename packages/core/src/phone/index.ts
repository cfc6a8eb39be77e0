export * from './phone-number.js';
