import { describe, expect, it } from '@jest/globals';
import { InMemoryUnitOfWork, SequentialIds } from '../testing/index.js';
import { applyInboundTagRules, type Tag, type TagRule } from './index.js';
import { tagRuleFixture } from './testing/index.js';

const t0 = new Date('2026-03-01T12:00:00.000Z');
const companyId = '00000000-0000-4000-8000-00000000000a';
const contactId = '00000000-0000-4000-8000-00000000000c';

describe('the inbound rule step', () => {
  const setup = async () => {
    const uow = new InMemoryUnitOfWork();
    const tag = (id: string): Tag => ({ id, companyId, name: id, description: null, color: null, createdAt: t0, updatedAt: t0 });
    for (const id of ['t-vip', 't-box', 't-ticket']) await uow.repos.tags.insert(tag(id));
    const rule = (id: string, fields: Partial<TagRule>): TagRule => tagRuleFixture(id, companyId, 't-vip', t0, { matchValue: 'vip', ...fields });
    await uow.repos.tagRules.insert(rule('r-vip', {}));
    await uow.repos.tagRules.insert(rule('r-box', { tagId: 't-box', matchValue: 'preço', setorIds: ['s2'] }));
    await uow.repos.tagRules.insert(rule('r-ticket', { tagId: 't-ticket', scope: 'conversation' }));
    await uow.repos.tagRules.insert(rule('r-off', { tagId: 't-box', enabled: false }));
    return { uow, ids: new SequentialIds() };
  };

  it('tags the contact for contact-scoped rules with contact.tagged (source rule, ruleId); conversation rules are left to tickets', async () => {
    const { uow, ids } = await setup();
    const result = await applyInboundTagRules(uow.repos, ids, { companyId, setorId: 's1', contactId, text: 'Sou cliente VIP, qual o preço?', at: t0 });
    expect(result.contactTagIds).toEqual(['t-vip']);
    expect(result.conversationRuleIds).toEqual(['r-ticket']);
    expect(result.events.map((e) => [e.event, e.setorId, e.data])).toEqual([['contact.tagged', 's1', { contactId, tagIds: ['t-vip'], source: 'rule', ruleId: 'r-vip' }]]);
    expect(await uow.repos.tags.tagIdsOfContact(contactId)).toEqual(['t-vip']);
  });

  it('a tag the contact has is not added again and emits nothing; box-limited rules apply on their box', async () => {
    const { uow, ids } = await setup();
    await applyInboundTagRules(uow.repos, ids, { companyId, setorId: 's1', contactId, text: 'vip', at: t0 });
    const again = await applyInboundTagRules(uow.repos, ids, { companyId, setorId: 's2', contactId, text: 'VIP e preço', at: t0 });
    expect(again.contactTagIds).toEqual(['t-box']);
    expect(again.events.map((e) => e.data.ruleId)).toEqual(['r-box']);
  });

  it('does nothing for a company without rules', async () => {
    const { uow, ids } = await setup();
    expect(await applyInboundTagRules(uow.repos, ids, { companyId: 'other', setorId: 's1', contactId, text: 'vip', at: t0 })).toEqual({
      contactTagIds: [],
      conversationRuleIds: [],
      events: [],
    });
  });
});
