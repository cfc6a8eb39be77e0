export * from './api-key-repositories.js';
export * from './api-key-repository.js';
export * from './api-key.js';
export * from './authenticate-request.js';
export * from './request-gate.js';
export * from './scopes.js';
