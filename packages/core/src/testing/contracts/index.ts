export * from './foundation-repositories.contract.js';
