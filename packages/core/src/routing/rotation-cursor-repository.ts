/**
 * Rotation cursors shared by every API process (stored in PostgreSQL): successive sends of
 * one pool take successive setores whichever process serves them.
 */
export interface RotationCursorRepository {
  /**
   * Atomically advances the cursor named `key` and answers its new value: 0 on the first
   * call, then 1, 2, … Callers take the value modulo their pool size.
   */
  advance(key: string, now: Date): Promise<number>;
}
export const RotationCursorRepository = Symbol.for('carteiro.RotationCursorRepository');
