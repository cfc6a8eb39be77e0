const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether `value` is a UUID in its canonical text form (any case). Ids from the outside may be
 * anything; PostgreSQL rejects a non-UUID with an error, so callers check first and answer
 * "not found" (or a 400) instead. The one definition of the pattern: the API's `uuid` format uses it too.
 */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}
