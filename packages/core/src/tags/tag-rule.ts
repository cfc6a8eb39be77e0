import { RE2JS } from 're2js';
import { ValidationError } from '../shared/errors.js';

export const TagRuleMatchTypes = ['contains', 'starts_with', 'equals', 'regex'] as const;
export type TagRuleMatchType = (typeof TagRuleMatchTypes)[number];
export const TagRuleScopes = ['contact', 'conversation'] as const;
export type TagRuleScope = (typeof TagRuleScopes)[number];

/** Most rules a company may have (conversations.md §11). */
export const MAX_TAG_RULES = 100;
/** Inbound text beyond this many characters is not looked at by rules. */
export const RULE_INPUT_LIMIT = 4096;

/** An auto-tagging rule: when an inbound text matches, the tag goes on the contact (or, scope `conversation`, the ticket). */
export interface TagRule {
  id: string;
  companyId: string;
  tagId: string;
  matchType: TagRuleMatchType;
  /** 1-200 characters. */
  matchValue: string;
  /** Off (default): both sides lowercased and accent-folded. */
  caseSensitive: boolean;
  scope: TagRuleScope;
  /** Setores whose inbound messages the rule looks at; empty: every setor. */
  setorIds: string[];
  enabled: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * The text rules compare: trimmed, NFC; unless case-sensitive also lowercased and stripped of
 * accents (`Orçamento` → `orcamento`), so that rules written either way match.
 */
export function foldText(text: string, caseSensitive: boolean): string {
  const trimmed = text.trim();
  // Latin-1 text (most Portuguese) is already NFC and its accents fold by a table: Unicode normalisation, the
  // costliest step of matching, is left to the other texts.
  if (!BEYOND_LATIN1.test(trimmed)) return caseSensitive ? trimmed : trimmed.toLowerCase().replace(LATIN1_ACCENTED, (c) => LATIN1_BASE[c] ?? c);
  const nfc = trimmed.normalize('NFC');
  if (caseSensitive) return nfc;
  return nfc.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().normalize('NFC');
}

const BEYOND_LATIN1 = /[^\u0000-\u00ff]/;
const LATIN1_ACCENTED = /[\u00e0-\u00ff]/g;
/** What NFD then dropping the marks makes of each lowercase Latin-1 letter (others, like ß and ø, stay). */
const LATIN1_BASE: Record<string, string> = Object.fromEntries(
  [...'àáâãäåçèéêëìíîïñòóôõöùúûüýÿ'].map((c) => [c, c.normalize('NFD').replace(/\p{M}/gu, '')]),
);

/** A rule ready to run on texts (its value folded, its regex compiled). */
export interface CompiledTagRule {
  rule: TagRule;
  test(text: { folded: string; exact: string }): boolean;
}

const regexCache = new Map<string, RE2JS>();

/** Compiles a rule pattern on RE2 (linear time); a syntax RE2 refuses (backreferences, lookaround) is a 400. */
export function compileRulePattern(pattern: string, caseSensitive: boolean): RE2JS {
  const key = `${caseSensitive ? 1 : 0}:${pattern}`;
  const cached = regexCache.get(key);
  if (cached) return cached;
  let compiled: RE2JS;
  try {
    // Folded input has no accents: the pattern loses its accents too (lowercasing it would change
    // escapes such as \D, so case is left to the engine's flag).
    const source = caseSensitive ? pattern : pattern.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');
    compiled = RE2JS.compile(source, caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
  } catch (error) {
    throw new ValidationError(
      `match_value is not a regular expression this service accepts (RE2 syntax: no backreferences or lookaround): ${(error as Error).message}`,
      { field: 'match_value' },
    );
  }
  if (regexCache.size >= 2000) regexCache.delete(regexCache.keys().next().value!);
  regexCache.set(key, compiled);
  return compiled;
}

/** Checks a rule's match value (length; a regex must compile on RE2). */
export function checkRuleMatch(matchType: TagRuleMatchType, matchValue: string, caseSensitive: boolean): void {
  if (matchValue.length < 1 || matchValue.length > 200 || matchValue.trim() === '') {
    throw new ValidationError('match_value must have 1-200 characters', { field: 'match_value' });
  }
  if (matchType === 'regex') compileRulePattern(matchValue, caseSensitive);
}

const compiledCache = new Map<string, CompiledTagRule>();

/**
 * A rule ready to run, cached by its id and content: inbound messages read the rules from the
 * database each time, and folding the values and compiling the regexes again for every text
 * would cost more than matching them.
 */
const compiledByObject = new WeakMap<TagRule, CompiledTagRule>();

export function compileTagRule(rule: TagRule): CompiledTagRule {
  const known = compiledByObject.get(rule);
  if (known) return known;
  const compiled = compileByContent(rule);
  compiledByObject.set(rule, compiled);
  return compiled;
}

function compileByContent(rule: TagRule): CompiledTagRule {
  const key = `${rule.id}\u0000${rule.matchType}\u0000${rule.caseSensitive ? 1 : 0}\u0000${rule.matchValue}`;
  const cached = compiledCache.get(key);
  if (cached) return { rule, test: cached.test };
  const compiled = compileUncached(rule);
  if (compiledCache.size >= 5000) compiledCache.delete(compiledCache.keys().next().value!);
  compiledCache.set(key, compiled);
  return compiled;
}

function compileUncached(rule: TagRule): CompiledTagRule {
  const pick = (text: { folded: string; exact: string }) => (rule.caseSensitive ? text.exact : text.folded);
  switch (rule.matchType) {
    case 'contains': {
      const value = foldText(rule.matchValue, rule.caseSensitive);
      return { rule, test: (t) => pick(t).includes(value) };
    }
    case 'starts_with': {
      const value = foldText(rule.matchValue, rule.caseSensitive);
      return { rule, test: (t) => pick(t).startsWith(value) };
    }
    case 'equals': {
      const value = foldText(rule.matchValue, rule.caseSensitive);
      return { rule, test: (t) => pick(t) === value };
    }
    case 'regex': {
      const regex = compileRulePattern(rule.matchValue, rule.caseSensitive);
      // `test` finds a match anywhere (as RegExp#test), several times cheaper than a matcher per text.
      return { rule, test: (t) => regex.test(pick(t)) };
    }
  }
}

const unionCache = new Map<string, RE2JS | null>();

/**
 * One RE2 program for several rule patterns (a "regex set" used as a filter): when it finds nothing, none of them
 * can match and each is skipped. Null when the union cannot be compiled (RE2's program size limit).
 */
function patternUnion(patterns: readonly string[], caseSensitive: boolean): RE2JS | null {
  const key = `${caseSensitive ? 1 : 0}\u0000${patterns.join('\u0000')}`;
  if (unionCache.has(key)) return unionCache.get(key)!;
  let union: RE2JS | null;
  try {
    const sources = patterns.map((p) => (caseSensitive ? p : p.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC')));
    union = RE2JS.compile(sources.map((p) => `(?:${p})`).join('|'), caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
  } catch {
    union = null;
  }
  if (unionCache.size >= 200) unionCache.delete(unionCache.keys().next().value!);
  unionCache.set(key, union);
  return union;
}

/** What running a list of rules on one setor's texts needs, worked out once per list and setor. */
interface RulePlan {
  /** The enabled rules for the setor, compiled. */
  items: CompiledTagRule[];
  /** Unions of the regex rules per case mode (null: fewer than two, or too big for RE2). */
  unions: { exact: RE2JS | null; folded: RE2JS | null };
}

const plans = new WeakMap<readonly (TagRule | CompiledTagRule)[], Map<string | null, RulePlan>>();

function planFor(rules: readonly (TagRule | CompiledTagRule)[], setorId: string | null): RulePlan {
  let byBox = plans.get(rules);
  const known = byBox?.get(setorId);
  if (known) return known;
  const items = rules
    .filter((item) => {
      const rule = 'test' in item ? item.rule : item;
      return rule.enabled && (rule.setorIds.length === 0 || (setorId !== null && rule.setorIds.includes(setorId)));
    })
    .map((item) => ('test' in item ? item : compileTagRule(item)));
  const union = (caseSensitive: boolean) => {
    const patterns = items.filter((c) => c.rule.matchType === 'regex' && c.rule.caseSensitive === caseSensitive).map((c) => c.rule.matchValue);
    return patterns.length < 2 ? null : patternUnion(patterns, caseSensitive);
  };
  const plan: RulePlan = { items, unions: { exact: union(true), folded: union(false) } };
  if (!byBox) plans.set(rules, (byBox = new Map()));
  byBox.set(setorId, plan);
  return plan;
}

/**
 * The enabled rules of `rules` that match `text` received on setor `setorId` (input capped at {@link RULE_INPUT_LIMIT}).
 * The list's plan (filtered, compiled, regex unions) is kept while the list object lives, so that evaluating one list
 * on many texts (the dry run, benchmarks) does that work once.
 */
export function matchingRules(rules: readonly (TagRule | CompiledTagRule)[], text: string, setorId: string | null): TagRule[] {
  const capped = text.length > RULE_INPUT_LIMIT ? text.slice(0, RULE_INPUT_LIMIT) : text;
  const input = { exact: foldText(capped, true), folded: foldText(capped, false) };
  const plan = planFor(rules, setorId);
  // Most texts match none of the regexes: one union per case mode rules them all out in one pass.
  const skipExact = plan.unions.exact !== null && !plan.unions.exact.test(input.exact);
  const skipFolded = plan.unions.folded !== null && !plan.unions.folded.test(input.folded);
  const out: TagRule[] = [];
  for (const compiled of plan.items) {
    const rule = compiled.rule;
    if (rule.matchType === 'regex' && (rule.caseSensitive ? skipExact : skipFolded)) continue;
    if (compiled.test(input)) out.push(rule);
  }
  return out;
}
