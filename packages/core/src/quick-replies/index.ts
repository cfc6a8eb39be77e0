export * from './manage-quick-replies.js';
export * from './quick-reply.js';
export * from './quick-reply-repositories.js';
export * from './quick-reply-repository.js';
export * from './render-quick-reply.js';
