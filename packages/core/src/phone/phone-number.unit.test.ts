import { describe, expect, it } from '@jest/globals';
import { DomainError } from '../shared/errors.js';
import { DEFAULT_PHONE_COUNTRY, isPhoneCountry, normalizePhone, phoneMatchKey, phoneVariants, samePhone, tryNormalizePhone } from './phone-number.js';

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

describe('normalizePhone with the company default country', () => {
  it.each([
    ['11987654321', 'BR', '+5511987654321'],
    ['(11) 98765-4321', 'BR', '+5511987654321'],
    ['011 98765 4321', 'BR', '+5511987654321'],
    ['1187654321', 'BR', '+551187654321'],
    ['1131234567', 'BR', '+551131234567'],
    ['5511987654321', 'BR', '+5511987654321'],
    ['+5511987654321', 'BR', '+5511987654321'],
    ['16502530000', 'BR', '+16502530000'],
    ['(650) 253-0000', 'US', '+16502530000'],
    ['+55 11 98765-4321', 'US', '+5511987654321'],
    ['020 7946 0018', 'GB', '+442079460018'],
  ])('given %p in %p, normalises to %p', (input, country, expected) => {
    expect(normalizePhone(input, 'phone', country)).toBe(expected);
  });

  it.each([
    ['987654321', 'BR'],
    ['+987654321', 'BR'],
    ['+55 98 7654321', 'BR'],
    ['98765432', 'BR'],
    ['11987654321', 'US'],
    ['00987654321', 'BR'],
  ])('given %p in %p, answers INVALID_NUMBER (not a number its country issues)', (input, country) => {
    expect(() => normalizePhone(input, 'phone', country)).toThrow(expect.objectContaining({ code: 'INVALID_NUMBER' }) as never);
  });

  it('without a default country reads every number as starting with its country code', () => {
    expect(tryNormalizePhone('11987654321')).toBeNull();
    expect(tryNormalizePhone('11987654321', 'BR')).toBe('+5511987654321');
  });

  it('knows the countries it can check', () => {
    expect(isPhoneCountry('BR')).toBe(true);
    expect(isPhoneCountry('PT')).toBe(true);
    expect(isPhoneCountry('br')).toBe(false);
    expect(isPhoneCountry('XX')).toBe(false);
    expect(isPhoneCountry('BRA')).toBe(false);
    expect(isPhoneCountry(DEFAULT_PHONE_COUNTRY)).toBe(true);
  });
});
