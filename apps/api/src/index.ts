export * from './app.js';
export * from './composition-root.js';
export * from './http/route.js';
export { apiRoutes } from './routes.js';
export * from './http/tokens.js';
export * from './admin/admin-views.js';
