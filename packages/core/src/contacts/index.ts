export * from './contact-affinity-repository.js';
export * from './contact-affinity.js';
export * from './contact-repositories.js';
export * from './contact-repository.js';
export * from './contact.js';
