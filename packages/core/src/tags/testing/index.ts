export * from './in-memory-tag-repositories.js';
export * from './tag-repositories.contract.js';
export * from './tag-rule-fixture.js';
