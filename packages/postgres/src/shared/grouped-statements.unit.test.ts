import { describe, expect, it } from '@jest/globals';
import { groupedById } from './grouped-statements.js';

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
