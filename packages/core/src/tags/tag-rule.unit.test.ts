import { describe, expect, it } from '@jest/globals';
import { ValidationError } from '../shared/errors.js';
import { checkRuleMatch, foldText, matchingRules, RULE_INPUT_LIMIT, type TagRule } from './tag-rule.js';
import { tagRuleFixture } from './testing/index.js';

const t0 = new Date('2026-03-01T12:00:00.000Z');
let n = 0;
const rule = (fields: Partial<TagRule>): TagRule => {
  n += 1;
  return tagRuleFixture(`r${n}`, 'c', `t${n}`, t0, fields);
};
const matches = (rules: TagRule[], text: string, setorId: string | null = 's1') => matchingRules(rules, text, setorId).map((r) => r.id);

describe('folding', () => {
  it('trims, NFC-normalises, lowercases and strips accents unless case-sensitive', () => {
    expect(foldText('  Orçamento JÁ  ', false)).toBe('orcamento ja');
    expect(foldText('Orc\u0327amento', false)).toBe('orcamento');
    expect(foldText('  Orc\u0327amento ', true)).toBe('Orçamento');
    expect(foldText('ÀÉÎÕÜ ñ', false)).toBe('aeiou n');
  });
});

describe('rule evaluation', () => {
  it('contains, starts_with and equals compare folded text on both sides', () => {
    const contains = rule({ matchType: 'contains', matchValue: 'orçamento' });
    const starts = rule({ matchType: 'starts_with', matchValue: 'OI' });
    const equals = rule({ matchType: 'equals', matchValue: 'Sim' });
    const rules = [contains, starts, equals];
    expect(matches(rules, 'Quero um ORCAMENTO')).toEqual([contains.id]);
    expect(matches(rules, '  oi, tudo bem?')).toEqual([starts.id]);
    expect(matches(rules, ' SÍM ')).toEqual([equals.id]);
    expect(matches(rules, 'sim, quero')).toEqual([]);
  });

  it('case_sensitive turns off both lowercasing and accent folding', () => {
    const exact = rule({ matchValue: 'Orçamento', caseSensitive: true });
    expect(matches([exact], 'um Orçamento')).toEqual([exact.id]);
    expect(matches([exact], 'um orçamento')).toEqual([]);
    expect(matches([exact], 'um Orcamento')).toEqual([]);
  });

  it('regex runs on RE2, case-insensitive and accent-folded unless case-sensitive', () => {
    const price = rule({ matchType: 'regex', matchValue: '\\bpre[çc]o\\b' });
    const digits = rule({ matchType: 'regex', matchValue: '^\\D+\\d{3}$', caseSensitive: true });
    expect(matches([price, digits], 'Qual o PREÇO?')).toEqual([price.id]);
    expect(matches([price, digits], 'Pedido 123')).toEqual([digits.id]);
    expect(matches([price, digits], 'pedido 123')).toEqual([digits.id]);
  });

  it('skips disabled rules and rules of other boxes; an empty box list is every box', () => {
    const off = rule({ enabled: false });
    const boxed = rule({ setorIds: ['s2'] });
    const everywhere = rule({});
    expect(matches([off, boxed, everywhere], 'x', 's1')).toEqual([everywhere.id]);
    expect(matches([off, boxed, everywhere], 'x', 's2')).toEqual([boxed.id, everywhere.id]);
    expect(matches([boxed], 'x', null)).toEqual([]);
  });

  it(`reads at most ${RULE_INPUT_LIMIT} characters`, () => {
    const tail = rule({ matchValue: 'fim' });
    expect(matches([tail], `${'a'.repeat(RULE_INPUT_LIMIT)}fim`)).toEqual([]);
    expect(matches([tail], `${'a'.repeat(RULE_INPUT_LIMIT - 3)}fim`)).toEqual([tail.id]);
  });

  it('a catastrophic pattern on a hostile 4,096-character input is linear', () => {
    const evil = rule({ matchType: 'regex', matchValue: '^(a+)+$', caseSensitive: true });
    const started = performance.now();
    expect(matches([evil], `${'a'.repeat(RULE_INPUT_LIMIT - 1)}!`)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('rule checks at creation', () => {
  it('refuse backreferences, lookaround, bad syntax and empty or long values', () => {
    for (const pattern of ['(a)\\1', 'a(?=b)', 'a(?!b)', '(?<=a)b', '(?<!a)b', '[']) {
      expect(() => checkRuleMatch('regex', pattern, false)).toThrow(ValidationError);
    }
    expect(() => checkRuleMatch('contains', ' ', false)).toThrow(ValidationError);
    expect(() => checkRuleMatch('contains', 'x'.repeat(201), false)).toThrow(ValidationError);
    expect(() => checkRuleMatch('regex', '^or[cç]amento$', false)).not.toThrow();
  });
});

describe('several regex rules', () => {
  it('match each on its own although one union filters the texts first', () => {
    const a = rule({ matchType: 'regex', matchValue: '^oi\\b' });
    const b = rule({ matchType: 'regex', matchValue: 'pre[çc]o$' });
    const c = rule({ matchType: 'regex', matchValue: '(?i)BOLETO', caseSensitive: true });
    const d = rule({ matchType: 'regex', matchValue: 'Pix', caseSensitive: true });
    const all = [a, b, c, d];
    expect(matches(all, 'Oi, qual o preço')).toEqual([a.id, b.id]);
    expect(matches(all, 'segunda via do boleto')).toEqual([c.id]);
    expect(matches(all, 'manda o Pix')).toEqual([d.id]);
    expect(matches(all, 'manda o pix')).toEqual([]);
    expect(matches(all, 'nada aqui')).toEqual([]);
  });
});

describe('folding shortcuts', () => {
  it('fold Latin-1 text by table exactly as Unicode normalisation does', () => {
    const latin1 = Array.from({ length: 0x100 - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)).join('');
    const full = (t: string) => t.trim().normalize('NFC').normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().normalize('NFC');
    expect(foldText(latin1, false)).toBe(full(latin1));
    expect(foldText(`  ${latin1}  `, true)).toBe(latin1.trim().normalize('NFC'));
    expect(foldText('ĀĒĪ Ǆ Ω ç', false)).toBe(full('ĀĒĪ Ǆ Ω ç'));
  });
});
