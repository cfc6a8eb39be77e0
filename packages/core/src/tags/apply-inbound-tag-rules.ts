import { systemActor, type DomainEvent } from '../shared/domain-event.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Repositories } from '../shared/unit-of-work.js';
import { matchingRules } from './tag-rule.js';
import type { TagRepositories } from './tag-repositories.js';

/** One inbound text the rules look at. */
export interface InboundTagRuleInput {
  companyId: string;
  setorId: string;
  contactId: string;
  /** The inbound text (text, caption or option title). Never outbound text, notes or rating replies: rules cannot loop. */
  text: string;
  at: Date;
}

/** What the rules did: tags newly put on the contact and the events saying so. */
export interface InboundTagRuleResult {
  contactTagIds: string[];
  /** Rules of scope `conversation` that matched: the tickets area applies them to the ticket. */
  conversationRuleIds: string[];
  events: DomainEvent[];
}

/** {@link InboundTagRuleResult} with the tags of the conversation-scope rules that matched (distinct, in rule order). */
export interface InboundTagRuleOutcome {
  result: InboundTagRuleResult;
  conversationTagIds: string[];
}

/**
 * The inbound step of auto-tagging (conversations.md §3, step 5), run inside the inbound
 * transaction: the company's enabled rules for the setor are matched against the text; scope
 * `contact` links the tag to the contact (`contact.tagged`, source `rule`, once per rule that
 * added a tag). Rules are not retroactive and nothing here triggers another inbound run.
 */
export async function applyInboundTagRules(repos: Repositories<TagRepositories>, ids: IdGenerator, input: InboundTagRuleInput): Promise<InboundTagRuleResult> {
  return (await runInboundTagRules(repos, ids, input)).result;
}

/**
 * {@link applyInboundTagRules}, also answering the tags of the matching conversation-scope rules, so that the inbound
 * use case does not read the rules a second time. The rules are read once; the contact's tags are linked in one insert.
 */
export async function runInboundTagRules(repos: Repositories<TagRepositories>, ids: IdGenerator, input: InboundTagRuleInput): Promise<InboundTagRuleOutcome> {
  const rules = await repos.tagRules.listEnabled(input.companyId);
  const result: InboundTagRuleResult = { contactTagIds: [], conversationRuleIds: [], events: [] };
  const outcome: InboundTagRuleOutcome = { result, conversationTagIds: [] };
  if (rules.length === 0) return outcome;
  const contactRules: typeof rules = [];
  for (const rule of matchingRules(rules, input.text, input.setorId)) {
    if (rule.scope === 'conversation') {
      result.conversationRuleIds.push(rule.id);
      if (!outcome.conversationTagIds.includes(rule.tagId)) outcome.conversationTagIds.push(rule.tagId);
    } else {
      contactRules.push(rule);
    }
  }
  if (contactRules.length === 0) return outcome;
  // One insert for every matching rule's tag; a tag newly linked counts for the first rule (in order) that names it,
  // as if the rules had linked their tags one after the other.
  const linked = new Set(await repos.tags.tagContact(input.contactId, contactRules.map((rule) => rule.tagId), input.at));
  for (const rule of contactRules) {
    if (!linked.delete(rule.tagId)) continue;
    const added = [rule.tagId];
    result.contactTagIds.push(...added);
    result.events.push({
      id: ids.newId(),
      event: 'contact.tagged',
      companyId: input.companyId,
      setorId: input.setorId,
      occurredAt: input.at,
      data: { contactId: input.contactId, tagIds: added, source: 'rule', ruleId: rule.id },
      actor: systemActor,
    });
  }
  return outcome;
}
