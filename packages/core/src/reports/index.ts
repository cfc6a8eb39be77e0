export * from './summary-report.js';
