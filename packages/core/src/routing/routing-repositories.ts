import type { RotationCursorRepository } from './rotation-cursor-repository.js';

/** The routing area's repositories, as a transaction or the read bag carries them (see `Repositories`). */
export interface RoutingRepositories {
  rotationCursors: RotationCursorRepository;
}
