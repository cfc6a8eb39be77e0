export * from './setor-repositories.js';
export * from './setor-repository.js';
export * from './setor.js';
