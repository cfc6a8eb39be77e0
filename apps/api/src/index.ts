export * from './app.js';
export * from './composition-root.js';
export * from './http/controller.js';
export * from './http/tokens.js';
export * from './admin/admin-views.js';
