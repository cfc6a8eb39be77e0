export * from './contact-repositories.contract.js';
export * from './in-memory-contact-repositories.js';
