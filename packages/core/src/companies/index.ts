export * from './company-repositories.js';
export * from './company-repository.js';
export * from './company.js';
