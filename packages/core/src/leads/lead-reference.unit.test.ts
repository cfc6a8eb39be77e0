import { describe, expect, it } from '@jest/globals';
import { allCnaes, allMunicipios, findCnae, foldReferenceText, searchCnaes, searchMunicipios } from './lead-reference.js';

describe('reference data', () => {
  it('holds the 1,332 CNAE 2.3 subclasses and 5,571 municipalities with a time zone each', () => {
    expect(allCnaes()).toHaveLength(1332);
    expect(allMunicipios()).toHaveLength(5571);
    expect(allMunicipios().every((m) => /^America\//.test(m.timezone))).toBe(true);
    expect(findCnae('6201-5/01')?.description).toBe('DESENVOLVIMENTO DE PROGRAMAS DE COMPUTADOR SOB ENCOMENDA');
  });

  it('folds accents, case and punctuation', () => {
    expect(foldReferenceText('Fabricação de PÃES, e   doces!')).toBe('fabricacao de paes e doces');
  });
});

describe('CNAE autocomplete', () => {
  it('matches digits by code prefix in code order, with or without the mask', () => {
    expect(searchCnaes('4721', 10).map((c) => c.code)).toEqual(['4721102', '4721103', '4721104']);
    expect(searchCnaes('4721-1/0', 2).map((c) => c.code)).toEqual(['4721102', '4721103']);
  });

  it('ranks the whole-query prefix first, then the words in order, then any order; shorter first', () => {
    const codes = searchCnaes('padaria', 5).map((c) => c.code);
    expect(codes[0]).toBe('4721102'); // PADARIA E CONFEITARIA COM PREDOMINÂNCIA DE REVENDA starts with the query
    expect(searchCnaes('PADARIA', 5).map((c) => c.code)).toEqual(codes);
    // Accent-free, prefix of words, any order.
    const confeitaria = searchCnaes('confeit padaria', 5);
    expect(confeitaria.map((c) => c.code)).toContain('4721102');
    expect(searchCnaes('restaurantes', 3)[0]!.code).toBe('5611201');
    // Rank 0 (the description starts with the query) before rank 1 (contains it) before rank 2 (words apart).
    const rank = (d: string, q: string) => (foldReferenceText(d).startsWith(q) ? 0 : foldReferenceText(d).includes(q) ? 1 : 2);
    const ranks = searchCnaes('comercio varejista', 20).map((c) => rank(c.description, 'comercio varejista'));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(ranks[0]).toBe(0);
    const mixed = searchCnaes('varejista comercio', 20).map((c) => rank(c.description, 'varejista comercio'));
    expect(mixed.every((r) => r === 2)).toBe(true);
    expect(searchCnaes('zzzz', 5)).toEqual([]);
  });

  it('keeps the limit', () => {
    expect(searchCnaes('comercio', 20)).toHaveLength(20);
  });
});

describe('municipality autocomplete', () => {
  it('ranks São Paulo before names that merely contain the words, and narrows by UF', () => {
    expect(searchMunicipios('sao paulo', undefined, 3)[0]).toMatchObject({ ibgeCode: '3550308', uf: 'SP' });
    expect(searchMunicipios('santa', 'SC', 30).every((m) => m.uf === 'SC')).toBe(true);
    expect(searchMunicipios('3550', undefined, 5).every((m) => m.ibgeCode.startsWith('3550'))).toBe(true);
    expect(searchMunicipios(undefined, 'AC', 30)).toHaveLength(22);
  });
});
