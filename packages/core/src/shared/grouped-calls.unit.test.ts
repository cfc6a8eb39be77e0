import { describe, expect, it } from '@jest/globals';
import { GroupedCalls } from './grouped-calls.js';

/** A statement runner whose batches are noted and answered when the test says. */
function runner() {
  const batches: number[][] = [];
  const pending: (() => void)[] = [];
  const run = (requests: readonly number[]) =>
    new Promise<number[]>((resolve, reject) => {
      batches.push([...requests]);
      pending.push(() => (requests.includes(13) ? reject(new Error('unlucky')) : resolve(requests.map((n) => n * 10))));
    });
  const answerNext = async () => {
    // Let the submitted calls reach the runner first.
    while (pending.length === 0) await new Promise((resolve) => setImmediate(resolve));
    pending.shift()!();
  };
  return { batches, run, answerNext };
}

describe('grouped calls', () => {
  it('given no statement in flight, then a call goes at once, alone; calls made meanwhile go together next', async () => {
    const r = runner();
    const grouped = new GroupedCalls(r.run);
    const results = [1, 2, 3, 4].map((n) => grouped.submit(n));
    await r.answerNext();
    await r.answerNext();
    expect(await Promise.all(results)).toEqual([10, 20, 30, 40]);
    expect(r.batches).toEqual([[1], [2, 3, 4]]);
  });

  it('given more waiting calls than the largest batch, then they go in batches of at most that many', async () => {
    const r = runner();
    const grouped = new GroupedCalls(r.run, 2);
    const results = [1, 2, 3, 4, 5].map((n) => grouped.submit(n));
    for (let i = 0; i < 3; i += 1) await r.answerNext();
    expect(await Promise.all(results)).toEqual([10, 20, 30, 40, 50]);
    expect(r.batches).toEqual([[1], [2, 3], [4, 5]]);
  });

  it('given a failing statement, then every call of its batch fails and the next batch still runs', async () => {
    const r = runner();
    const grouped = new GroupedCalls(r.run);
    const results = [1, 13, 14, 2].map((n) => grouped.submit(n).catch((error: Error) => error.message));
    await r.answerNext();
    await r.answerNext();
    expect(await Promise.all(results)).toEqual([10, 'unlucky', 'unlucky', 'unlucky']);
    const later = grouped.submit(5);
    await r.answerNext();
    expect(await later).toBe(50);
  });
});
