export * from './admin-service.js';
export * from './update-company-settings.js';
