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

/**
 * The inbound step of auto-tagging (conversations.md §3, step 5), run inside the inbound
 * transaction: the company's enabled rules for the setor are matched against the text; scope
 * `contact` links the tag to the contact (`contact.tagged`, source `rule`, once per rule that
 * added a tag). Rules are not retroactive and nothing here triggers another inbound run.
 */
export async function applyInboundTagRules(repos: Repositories<TagRepositories>, ids: IdGenerator, input: InboundTagRuleInput): Promise<InboundTagRuleResult> {
  const rules = await repos.tagRules.listEnabled(input.companyId);
  const result: InboundTagRuleResult = { contactTagIds: [], conversationRuleIds: [], events: [] };
  if (rules.length === 0) return result;
  for (const rule of matchingRules(rules, input.text, input.setorId)) {
    if (rule.scope === 'conversation') {
      result.conversationRuleIds.push(rule.id);
      continue;
    }
    const added = await repos.tags.tagContact(input.contactId, [rule.tagId], input.at);
    if (added.length === 0) continue;
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
  return result;
}
