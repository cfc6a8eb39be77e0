import { describe, expect, it } from '@jest/globals';
import { GroupedStatements, groupedById } from './grouped-statements.js';

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

describe('grouped statements', () => {
  it('given no statement in flight, then a call goes at once, alone; calls made meanwhile go together next', async () => {
    const r = runner();
    const grouped = new GroupedStatements(r.run);
    const results = [1, 2, 3, 4].map((n) => grouped.submit(n));
    await r.answerNext();
    await r.answerNext();
    expect(await Promise.all(results)).toEqual([10, 20, 30, 40]);
    expect(r.batches).toEqual([[1], [2, 3, 4]]);
  });

  it('given more waiting calls than the largest batch, then they go in batches of at most that many', async () => {
    const r = runner();
    const grouped = new GroupedStatements(r.run, 2);
    const results = [1, 2, 3, 4, 5].map((n) => grouped.submit(n));
    for (let i = 0; i < 3; i += 1) await r.answerNext();
    expect(await Promise.all(results)).toEqual([10, 20, 30, 40, 50]);
    expect(r.batches).toEqual([[1], [2, 3], [4, 5]]);
  });

  it('given a failing statement, then every call of its batch fails and the next batch still runs', async () => {
    const r = runner();
    const grouped = new GroupedStatements(r.run);
    const results = [1, 13, 14, 2].map((n) => grouped.submit(n).catch((error: Error) => error.message));
    await r.answerNext();
    await r.answerNext();
    expect(await Promise.all(results)).toEqual([10, 'unlucky', 'unlucky', 'unlucky']);
    const later = grouped.submit(5);
    await r.answerNext();
    expect(await later).toBe(50);
  });
});

describe('grouped reads by id', () => {
  const a = '00000000-0000-4000-8000-00000000000a';
  const b = '00000000-0000-4000-8000-00000000000b';

  it('given reads made at once, then one select for the ids asked meanwhile; a missing id and a non-UUID answer null, the non-UUID never sent', async () => {
    const db = {};
    const asked: string[][] = [];
    const find = groupedById(
      db,
      'rows',
      async (ids) => {
        asked.push(ids);
        return ids.filter((id) => id !== b).map((id) => ({ id, name: `row ${id.slice(-1)}` }));
      },
      (row) => row.id,
    );
    const answers = await Promise.all([find(a), find(b), find('not-a-uuid'), find(a)]);
    expect(answers).toEqual([{ id: a, name: 'row a' }, null, null, { id: a, name: 'row a' }]);
    expect(asked).toEqual([[a], [b, a]]);
  });

  it('given two databases, then each has its own group', async () => {
    const seen: string[] = [];
    const select = (tag: string) => async (ids: string[]) => (seen.push(tag), ids.map((id) => ({ id })));
    await Promise.all([groupedById({}, 'rows', select('first'), (r) => r.id)(a), groupedById({}, 'rows', select('second'), (r) => r.id)(a)]);
    expect(seen.sort()).toEqual(['first', 'second']);
  });
});
