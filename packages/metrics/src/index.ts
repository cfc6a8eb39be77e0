export * from './process-metrics.js';
export * from './database-sampler.js';
export * from './database-metrics.js';
export * from './instrumented-gateway.js';
export * from './metrics-endpoint.js';
export * from './metrics.module.js';
