import type { TeamRepository } from './team-repository.js';

/** The teams area's repositories, as a transaction or the read bag carries them (see `Repositories`). */
export interface TeamRepositories {
  teams: TeamRepository;
}
