import type { TagRule } from '../tag-rule.js';

/**
 * A rule of `companyId` that tags with `tagId`: enabled, `contains` "x" ignoring case, contact scope, every setor, made
 * and last changed at `at`; `fields` say what a test is about.
 */
export function tagRuleFixture(id: string, companyId: string, tagId: string, at: Date, fields: Partial<TagRule> = {}): TagRule {
  return {
    id,
    companyId,
    tagId,
    matchType: 'contains',
    matchValue: 'x',
    caseSensitive: false,
    scope: 'contact',
    setorIds: [],
    enabled: true,
    createdAt: at,
    updatedAt: at,
    ...fields,
  };
}
