import type { SetorRepository } from './setor-repository.js';

/** The setores area's repositories, as a transaction or the read bag carries them (see `Repositories`). */
export interface SetorRepositories {
  setores: SetorRepository;
}
