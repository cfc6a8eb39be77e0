import { describe, expect, it } from '@jest/globals';
import { ManualClock } from '../shared/testing/manual-clock.js';
import { InMemoryUnitOfWork, SequentialIds } from '../testing/index.js';
import { ManageTagRules, ManageTags, TagRuleCache, type TagRule, type TagRuleRepository } from './index.js';

const companyId = '00000000-0000-4000-8000-00000000000a';

/** The world's rule repository, counting `listEnabled` reads. */
function counting(uow: InMemoryUnitOfWork) {
  const reads = { n: 0 };
  const repository = Object.create(uow.repos.tagRules) as TagRuleRepository;
  repository.listEnabled = (id: string) => {
    reads.n += 1;
    return uow.repos.tagRules.listEnabled(id);
  };
  return { repository, reads };
}

async function setup() {
  const clock = new ManualClock();
  const uow = new InMemoryUnitOfWork();
  const ids = new SequentialIds();
  const cache = new TagRuleCache(clock, 1_000);
  const tags = new ManageTags(uow, uow.repos, ids, clock, cache);
  const rules = new ManageTagRules(uow, uow.repos as never, ids, clock, cache);
  const tag = await tags.create(companyId, { name: 'VIP' });
  return { clock, uow, cache, tags, rules, tag, ...counting(uow) };
}

const values = (list: TagRule[]) => list.map((r) => r.matchValue);

describe('TagRuleCache', () => {
  it('answers the same list without reading again for maxAgeMs, then reads again', async () => {
    const { clock, cache, rules, tag, repository, reads } = await setup();
    await rules.create(companyId, { tagId: tag.id, matchType: 'contains', matchValue: 'vip' });
    const first = await cache.listEnabled(repository, companyId);
    clock.advance(999);
    const again = await cache.listEnabled(repository, companyId);
    expect(again).toBe(first);
    expect(reads.n).toBe(1);
    clock.advance(1);
    expect(values(await cache.listEnabled(repository, companyId))).toEqual(['vip']);
    expect(reads.n).toBe(2);
  });

  it('a rule created, changed or deleted through this process, or a tag deleted, is seen by the next read at once', async () => {
    const { cache, tags, rules, tag, repository, reads } = await setup();
    expect(await cache.listEnabled(repository, companyId)).toEqual([]);
    const rule = await rules.create(companyId, { tagId: tag.id, matchType: 'contains', matchValue: 'vip' });
    expect(values(await cache.listEnabled(repository, companyId))).toEqual(['vip']);
    await rules.update(companyId, rule.id, { matchValue: 'ouro' });
    expect(values(await cache.listEnabled(repository, companyId))).toEqual(['ouro']);
    await rules.update(companyId, rule.id, { enabled: false });
    expect(await cache.listEnabled(repository, companyId)).toEqual([]);
    await rules.update(companyId, rule.id, { enabled: true });
    expect(values(await cache.listEnabled(repository, companyId))).toEqual(['ouro']);
    await rules.delete(companyId, rule.id);
    expect(await cache.listEnabled(repository, companyId)).toEqual([]);
    await rules.create(companyId, { tagId: tag.id, matchType: 'contains', matchValue: 'prata' });
    expect(values(await cache.listEnabled(repository, companyId))).toEqual(['prata']);
    await tags.delete(companyId, tag.id);
    expect(await cache.listEnabled(repository, companyId)).toEqual([]);
    expect(reads.n).toBe(8);
  });

  it('a read in flight when the rules change is not kept, and a failed read is not kept', async () => {
    const { cache, repository } = await setup();
    let release!: (rules: TagRule[]) => void;
    const slow = Object.create(repository) as TagRuleRepository;
    slow.listEnabled = () => new Promise<TagRule[]>((resolve) => (release = resolve));
    const inFlight = cache.listEnabled(slow, companyId);
    cache.invalidate(companyId);
    release([]);
    await inFlight;
    expect(cache.size).toBe(0);
    const failing = Object.create(repository) as TagRuleRepository;
    failing.listEnabled = () => Promise.reject(new Error('connection lost'));
    await expect(cache.listEnabled(failing, companyId)).rejects.toThrow('connection lost');
    expect(cache.size).toBe(0);
  });

  it('keeps at most maxCompanies companies, the oldest read going first', async () => {
    const clock = new ManualClock();
    const uow = new InMemoryUnitOfWork();
    const cache = new TagRuleCache(clock, 1_000, 2);
    const { repository, reads } = counting(uow);
    for (const id of ['a', 'b', 'c']) await cache.listEnabled(repository, id);
    expect(cache.size).toBe(2);
    await cache.listEnabled(repository, 'c');
    await cache.listEnabled(repository, 'b');
    expect(reads.n).toBe(3);
    await cache.listEnabled(repository, 'a');
    expect(reads.n).toBe(4);
  });
});
