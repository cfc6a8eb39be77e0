export * from './apply-inbound-tag-rules.js';
export * from './manage-tag-rules.js';
export * from './manage-tags.js';
export * from './tag-repositories.js';
export * from './tag-repository.js';
export * from './tag-rule-repository.js';
export * from './tag-rule.js';
export * from './tag.js';
