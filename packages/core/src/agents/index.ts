export * from './agent.js';
export * from './agent-repositories.js';
export * from './agent-repository.js';
export * from './agent-status-listener.js';
export * from './manage-agents.js';
export * from './manage-teams.js';
