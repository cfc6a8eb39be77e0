export * from './tag-repositories.js';
export * from './tag-repository.js';
export * from './tag.js';
