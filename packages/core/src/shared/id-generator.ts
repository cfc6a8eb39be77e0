/** Issues identifiers for new records: opaque strings, UUID-shaped in production. */
export interface IdGenerator {
  /** A new, never-issued identifier. */
  newId(): string;
}
export const IdGenerator = Symbol.for('carteiro.IdGenerator');
