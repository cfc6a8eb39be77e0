import type { AgentRepository } from './agent-repository.js';

/** The agents area's repositories, as a transaction or the read bag carries them (see `Repositories`). */
export interface AgentRepositories {
  agents: AgentRepository;
}
