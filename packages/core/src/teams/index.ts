export * from './team-repositories.js';
export * from './team-repository.js';
export * from './team.js';
