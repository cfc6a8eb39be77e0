/** How a multi-number campaign spreads its recipients over the pool. */
export type Distribution = 'interleaved' | 'sequential';
export const Distributions: readonly Distribution[] = ['interleaved', 'sequential'];

/** Whether the campaign uses one number or several. */
export type DistributionMode = 'single' | 'multi_number';

/**
 * The number of each recipient, by position. `interleaved` goes round-robin over the pool;
 * `sequential` fills each number up to what it may still send today (its warming capacity)
 * before moving to the next, and leaves any overflow on the last number (where it is skipped
 * with WARMING_DAILY_LIMIT when the number reaches its limit).
 */
export function assignSenders(
  count: number,
  pool: readonly string[],
  distribution: Distribution,
  capacities: ReadonlyMap<string, number> = new Map(),
): string[] {
  if (pool.length === 0) throw new Error('assignSenders needs a non-empty pool');
  const out = new Array<string>(count);
  if (distribution === 'interleaved' || pool.length === 1) {
    for (let i = 0; i < count; i += 1) out[i] = pool[i % pool.length]!;
    return out;
  }
  let index = 0;
  for (let p = 0; p < pool.length && index < count; p += 1) {
    const last = p === pool.length - 1;
    const capacity = last ? count - index : Math.max(0, capacities.get(pool[p]!) ?? Number.POSITIVE_INFINITY);
    const end = Math.min(count, index + capacity);
    for (; index < end; index += 1) out[index] = pool[p]!;
  }
  return out;
}

/**
 * Where the pending messages of a number that can no longer send go: round-robin over the
 * numbers of the pool that still can. Answers null when none can (the campaign then fails).
 */
export function redistribute(messageIds: readonly string[], remaining: readonly string[]): Map<string, string[]> | null {
  if (remaining.length === 0) return null;
  const plan = new Map<string, string[]>(remaining.map((s) => [s, []]));
  messageIds.forEach((id, i) => plan.get(remaining[i % remaining.length]!)!.push(id));
  return plan;
}
