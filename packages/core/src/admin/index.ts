export * from './admin-service.js';
