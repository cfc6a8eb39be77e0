export * from './contact-area.contract.js';
export * from './contact-repositories.contract.js';
export * from './in-memory-contact-repositories.js';
