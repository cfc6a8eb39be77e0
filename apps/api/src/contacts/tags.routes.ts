import { ManageTagRules, ManageTags, TagRuleMatchTypes, TagRuleScopes, type TagRuleMatchType, type TagRuleScope } from '@carteiro/core';
import { defineRoute, idParam } from '../http/route.js';
import { pageOfCompany } from '../shared/page-of-company.js';
import { component, pageProperties, pageQuery, s, typed, type PageQuery } from '../http/schema.js';
import { ruleView, tagView } from './contact-views.js';

const read = { scope: 'tags:read' } as const;
const write = { scope: 'tags:write' } as const;

const Tag = component(
  'Tag',
  s.object({ id: s.uuid(), name: s.string(), description: s.nullableString(), color: s.nullableString(), created_at: s.dateTime(), updated_at: s.dateTime() }),
);
const TagRule = component(
  'TagRule',
  s.object({
    id: s.uuid(),
    tag_id: s.uuid(),
    match_type: s.enum(TagRuleMatchTypes),
    match_value: s.string(),
    case_sensitive: s.boolean(),
    scope: s.enum(TagRuleScopes),
    setor_ids: s.array(s.uuid()),
    enabled: s.boolean(),
    created_at: s.dateTime(),
    updated_at: s.dateTime(),
  }),
);

const tagProps = {
  name: s.string({ minLength: 1, maxLength: 50 }),
  description: s.nullableString({ maxLength: 200 }),
  color: s.nullableString({ pattern: '^#[0-9A-Fa-f]{6}$' }),
};
interface TagBody {
  name?: string;
  description?: string | null;
  color?: string | null;
}

const ruleProps = {
  tag_id: s.uuid(),
  match_type: s.enum(TagRuleMatchTypes),
  match_value: s.string({ minLength: 1, maxLength: 200 }),
  case_sensitive: s.boolean({ description: 'Off (default): both sides lowercased and accent-folded.' }),
  scope: s.enum(TagRuleScopes, { description: '`contact` tags the contact; `conversation` the ticket (applied by the tickets area).' }),
  setor_ids: s.array(s.uuid(), { maxItems: 100, description: 'Boxes whose inbound messages the rule reads; empty: all.' }),
  enabled: s.boolean(),
};
interface RuleBody {
  tag_id?: string;
  match_type?: TagRuleMatchType;
  match_value?: string;
  case_sensitive?: boolean;
  scope?: TagRuleScope;
  setor_ids?: string[];
  enabled?: boolean;
}
const ruleInput = (b: RuleBody) => ({
  tagId: b.tag_id?.toLowerCase(),
  matchType: b.match_type,
  matchValue: b.match_value,
  caseSensitive: b.case_sensitive,
  scope: b.scope,
  setorIds: b.setor_ids?.map((id) => id.toLowerCase()),
  enabled: b.enabled,
});

/** Tags and auto-tagging rules (conversations.md §5). */
export const tagsRoutes = [
  pageOfCompany({
    path: '/v1/tags',
    auth: read,
    operationId: 'listTags',
    summary: 'List tags',
    tag: 'Tags',
    query: typed<PageQuery & { q?: string }>({ type: 'object', properties: { q: s.string({ minLength: 1, maxLength: 50, description: 'Part of the name, any case.' }), ...pageProperties(100) } }),
    response: { description: 'A page of tags by name.', item: Tag },
    list: (use, companyId, query) => use(ManageTags).list(companyId, query.q, { page: query.page, limit: query.limit }),
    view: tagView,
  }),
  defineRoute({
    method: 'post',
    path: '/v1/tags',
    auth: write,
    operationId: 'createTag',
    summary: 'Create a tag',
    description: 'Names are unique ignoring case: a duplicate is a 409 with `details.tag_id` of the existing tag.',
    tag: 'Tags',
    body: { schema: typed<TagBody & { name: string }>({ type: 'object', required: ['name'], additionalProperties: false, properties: tagProps }), example: { name: 'Orçamento', color: '#FFAA00' } },
    response: { status: 201, description: 'The tag.', data: Tag },
    errors: ['CONFLICT', 'UNPROCESSABLE'],
    async handler({ body, principal, use }) {
      return tagView(await use(ManageTags).create(principal.company.id, body));
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/tags/:id',
    auth: write,
    operationId: 'updateTag',
    summary: 'Edit a tag',
    tag: 'Tags',
    params: { id: idParam('tag', 'Tag') },
    body: { schema: typed<TagBody>({ type: 'object', additionalProperties: false, minProperties: 1, properties: tagProps }), example: { color: '#00AA00' } },
    response: { status: 200, description: 'The tag.', data: Tag },
    errors: ['NOT_FOUND', 'CONFLICT'],
    async handler({ params, body, principal, use }) {
      return tagView(await use(ManageTags).update(principal.company.id, params.id, body));
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/tags/:id',
    auth: write,
    operationId: 'deleteTag',
    summary: 'Delete a tag with its links and rules',
    tag: 'Tags',
    params: { id: idParam('tag', 'Tag') },
    response: {
      status: 200,
      description: 'Deleted, with how many contact links and rules went with it.',
      data: s.object({ deleted: s.boolean({ const: true }), id: s.uuid(), contacts_untagged: s.integer({ minimum: 0 }), rules_deleted: s.integer({ minimum: 0 }) }),
    },
    errors: ['NOT_FOUND'],
    async handler({ params, principal, use }) {
      const counts = await use(ManageTags).delete(principal.company.id, params.id);
      return { deleted: true, id: params.id, contacts_untagged: counts.contacts, rules_deleted: counts.rules };
    },
  }),
  pageOfCompany({
    path: '/v1/tag-rules',
    auth: read,
    operationId: 'listTagRules',
    summary: 'List auto-tagging rules',
    tag: 'Tags',
    query: pageQuery(100),
    response: { description: 'A page of rules, oldest first.', item: TagRule },
    list: (use, companyId, query) => use(ManageTagRules).list(companyId, query),
    view: ruleView,
  }),
  defineRoute({
    method: 'post',
    path: '/v1/tag-rules',
    auth: write,
    operationId: 'createTagRule',
    summary: 'Create an auto-tagging rule',
    description:
      'Runs on inbound text only. `regex` uses RE2 syntax (linear time): backreferences and lookaround are a 400; input is capped at 4096 characters.',
    tag: 'Tags',
    body: {
      schema: typed<RuleBody & { tag_id: string; match_type: TagRuleMatchType; match_value: string }>({
        type: 'object',
        required: ['tag_id', 'match_type', 'match_value'],
        additionalProperties: false,
        properties: ruleProps,
      }),
      example: { tag_id: '00000000-0000-4000-8000-000000000001', match_type: 'contains', match_value: 'orçamento' },
    },
    response: { status: 201, description: 'The rule.', data: TagRule },
    errors: ['NOT_FOUND', 'UNPROCESSABLE'],
    async handler({ body, principal, use }) {
      const input = ruleInput(body);
      return ruleView(await use(ManageTagRules).create(principal.company.id, { ...input, tagId: input.tagId!, matchType: body.match_type, matchValue: body.match_value }));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/tag-rules/test',
    auth: read,
    operationId: 'testTagRules',
    summary: 'Dry-run the rules on a text',
    description: 'Which enabled rules would match `text` received on `setor_id`; nothing is tagged.',
    tag: 'Tags',
    body: {
      schema: typed<{ text: string; setor_id?: string }>({
        type: 'object',
        required: ['text'],
        additionalProperties: false,
        properties: { text: s.string({ maxLength: 65_536 }), setor_id: s.uuid() },
      }),
      example: { text: 'Quero um orçamento' },
    },
    response: { status: 200, description: 'The matching rules.', data: s.object({ matches: s.array(s.object({ rule_id: s.uuid(), tag_id: s.uuid() })) }) },
    errors: ['NOT_FOUND'],
    async handler({ body, principal, use }) {
      const rules = await use(ManageTagRules).test(principal.company.id, body.text, body.setor_id?.toLowerCase() ?? null);
      return { matches: rules.map((r) => ({ rule_id: r.id, tag_id: r.tagId })) };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/tag-rules/:id',
    auth: write,
    operationId: 'updateTagRule',
    summary: 'Edit an auto-tagging rule',
    tag: 'Tags',
    params: { id: idParam('tag rule', 'Tag rule') },
    body: { schema: typed<RuleBody>({ type: 'object', additionalProperties: false, minProperties: 1, properties: ruleProps }), example: { enabled: false } },
    response: { status: 200, description: 'The rule.', data: TagRule },
    errors: ['NOT_FOUND'],
    async handler({ params, body, principal, use }) {
      return ruleView(await use(ManageTagRules).update(principal.company.id, params.id, ruleInput(body)));
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/tag-rules/:id',
    auth: write,
    operationId: 'deleteTagRule',
    summary: 'Delete an auto-tagging rule',
    tag: 'Tags',
    params: { id: idParam('tag rule', 'Tag rule') },
    response: { status: 200, description: 'Deleted.', data: s.object({ deleted: s.boolean({ const: true }), id: s.uuid() }) },
    errors: ['NOT_FOUND'],
    async handler({ params, principal, use }) {
      await use(ManageTagRules).delete(principal.company.id, params.id);
      return { deleted: true, id: params.id };
    },
  }),
];
