/**
 * A positive number from the environment (a lease or an interval that tests shorten), or
 * `fallback` when the variable is unset or not a positive number.
 */
export function positiveFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = Number(env[name]);
  return env[name] !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}
