export * from './client.js';
export * from './crm-repositories.js';
export * from './funnel-stage.js';
export * from './funnel-stages.js';
export * from './opportunities.js';
export * from './opportunity.js';
export * from './product.js';
export * from './products-catalogue.js';
