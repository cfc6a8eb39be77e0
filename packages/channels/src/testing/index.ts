export * from './fake-server.js';
export * from './fake-evolution-server.js';
export * from './fake-cloud-api-server.js';
