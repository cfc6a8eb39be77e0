/**
 * Reads `read` until `until` holds of what it answered or `timeoutMs` has passed, pausing
 * `intervalMs` between reads, and answers the last value read: the test asserts on that value,
 * so a timeout fails there, showing what was last seen.
 */
export async function readUntil<T>(
  read: () => Promise<T>,
  until: (value: T) => boolean,
  { timeoutMs = 10_000, intervalMs = 50 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!until(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    value = await read();
  }
  return value;
}
