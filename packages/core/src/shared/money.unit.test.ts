import { describe, expect, it } from '@jest/globals';
import { ValidationError } from './errors.js';
import { formatBrl, fromCents, toCents } from './money.js';

describe('money', () => {
  it('turns reais with at most two decimals into centavos and back, exactly', () => {
    expect([0, 0.1, 0.29, 1.005 - 0.005, 1234.56, 999_999_999].map((r) => toCents(r))).toEqual([0, 10, 29, 100, 123_456, 99_999_999_900]);
    expect(fromCents(123_456)).toBe(1234.56);
    expect(() => toCents(1.234)).toThrow(ValidationError);
    expect(() => toCents(-1)).toThrow(ValidationError);
    expect(() => toCents(Number.NaN)).toThrow(ValidationError);
  });

  it('formats R$ with Brazilian grouping', () => {
    expect([0, 5, 123_456, 100_000_000, -1_050].map(formatBrl)).toEqual(['R$ 0,00', 'R$ 0,05', 'R$ 1.234,56', 'R$ 1.000.000,00', '-R$ 10,50']);
  });
});
