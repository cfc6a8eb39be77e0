import { describe, expect, it } from '@jest/globals';
import { DomainError } from '../shared/errors.js';
import { normalizePhone, phoneMatchKey, phoneVariants, samePhone, tryNormalizePhone } from './phone-number.js';

describe('normalizePhone', () => {
  it.each([
    ['+5511987654321', '+5511987654321'],
    ['5511987654321', '+5511987654321'],
    ['+55 (11) 98765-4321', '+5511987654321'],
    ['55 11 98765 4321', '+5511987654321'],
    ['  +55.11.98765.4321 ', '+5511987654321'],
    ['+1 (650) 253-0000', '+16502530000'],
    ['+55 11 8765-4321', '+551187654321'],
  ])('given %p, normalises to %p', (input, expected) => {
    expect(normalizePhone(input)).toBe(expected);
  });

  it.each([
    ['abc'],
    [''],
    ['+55 11 98765-432a'],
    ['11987654321'],
    ['+5511'],
    ['++5511987654321'],
    ['55119876543210000'],
    ['+15550001234'],
  ])('given %p, answers INVALID_NUMBER', (input) => {
    expect(() => normalizePhone(input)).toThrow(DomainError);
    try {
      normalizePhone(input);
    } catch (error) {
      expect((error as DomainError).code).toBe('INVALID_NUMBER');
    }
  });

  it('rejects values that are not strings', () => {
    expect(tryNormalizePhone(5511987654321)).toBeNull();
    expect(tryNormalizePhone(undefined)).toBeNull();
    expect(tryNormalizePhone('+5511987654321')).toBe('+5511987654321');
  });
});

describe('ninth-digit matching', () => {
  it('gives a Brazilian mobile the same key with and without the ninth digit', () => {
    expect(phoneMatchKey('+5511987654321')).toBe('+551187654321');
    expect(phoneMatchKey('+551187654321')).toBe('+551187654321');
    expect(samePhone('+5511987654321', '+551187654321')).toBe(true);
  });

  it('leaves fixed lines and other countries alone', () => {
    expect(phoneMatchKey('+551131234567')).toBe('+551131234567');
    expect(phoneMatchKey('+16502530000')).toBe('+16502530000');
    expect(samePhone('+551131234567', '+5511931234567')).toBe(false);
  });

  it('lists both spellings of a mobile', () => {
    expect(phoneVariants('+5511987654321')).toEqual(['+5511987654321', '+551187654321']);
    expect(phoneVariants('+551187654321')).toEqual(['+5511987654321', '+551187654321']);
    expect(phoneVariants('+551131234567')).toEqual(['+551131234567']);
  });
});
