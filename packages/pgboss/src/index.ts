export * from './boss.js';
export * from './queues.js';
export * from './pg-boss-job-scheduler.js';
export * from './pgboss.module.js';
