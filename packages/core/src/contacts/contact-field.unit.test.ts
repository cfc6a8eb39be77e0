import { describe, expect, it } from '@jest/globals';
import { ValidationError } from '../shared/errors.js';
import { checkCustomFields, isValidCnpj, isValidCpf, validateCustomFields, type ContactFieldDefinition, type ContactFieldType } from './contact-field.js';

const t0 = new Date('2026-03-01T12:00:00.000Z');
const def = (key: string, type: ContactFieldType, options: string[] = []): ContactFieldDefinition => ({ id: key, companyId: 'c', key, label: key, type, options, createdAt: t0, updatedAt: t0 });
const defs = [
  def('texto', 'text'),
  def('n', 'number'),
  def('b', 'boolean'),
  def('d', 'date'),
  def('plano', 'select', ['ouro', 'prata']),
  def('cores', 'multi_select', ['azul', 'verde']),
  def('mail', 'email'),
  def('site', 'url'),
  def('cpf', 'cpf'),
  def('cnpj', 'cnpj'),
];
const problem = (key: string, value: unknown) => checkCustomFields(defs, { [key]: value }).problems.map((p) => p.field);

describe('CPF and CNPJ check digits', () => {
  it('accept valid numbers with or without punctuation', () => {
    expect(isValidCpf('529.982.247-25')).toBe(true);
    expect(isValidCpf('52998224725')).toBe(true);
    expect(isValidCnpj('11.222.333/0001-81')).toBe(true);
    expect(isValidCnpj('11222333000181')).toBe(true);
  });
  it('refuse wrong check digits, repeated digits and wrong lengths', () => {
    expect(isValidCpf('529.982.247-24')).toBe(false);
    expect(isValidCpf('111.111.111-11')).toBe(false);
    expect(isValidCpf('5299822472')).toBe(false);
    expect(isValidCnpj('11.222.333/0001-80')).toBe(false);
    expect(isValidCnpj('00000000000000')).toBe(false);
    expect(isValidCnpj('1122233300018')).toBe(false);
  });
});

describe('custom-field values', () => {
  it('accept values of each type', () => {
    const values = {
      texto: 'oi',
      n: 3.5,
      b: false,
      d: '2024-02-29',
      plano: 'ouro',
      cores: ['azul', 'azul', 'verde'],
      mail: 'a@b.co',
      site: 'https://x.test/a',
      cpf: '529.982.247-25',
      cnpj: '11.222.333/0001-81',
    };
    expect(validateCustomFields(defs, values)).toEqual({ ...values, cores: ['azul', 'verde'] });
  });
  it('refuse each type\'s bad values, naming custom_fields.<key>', () => {
    expect(problem('texto', 'x'.repeat(1001))).toEqual(['custom_fields.texto']);
    expect(problem('texto', 5)).toEqual(['custom_fields.texto']);
    expect(problem('n', '5')).toEqual(['custom_fields.n']);
    expect(problem('b', 'true')).toEqual(['custom_fields.b']);
    expect(problem('d', '2023-02-29')).toEqual(['custom_fields.d']);
    expect(problem('d', '01/02/2020')).toEqual(['custom_fields.d']);
    expect(problem('plano', 'bronze')).toEqual(['custom_fields.plano']);
    expect(problem('cores', ['azul', 'rosa'])).toEqual(['custom_fields.cores']);
    expect(problem('cores', Array.from({ length: 21 }, () => 'azul').map((v, i) => `${v}${i}`))).toEqual(['custom_fields.cores']);
    expect(problem('mail', 'not-an-email')).toEqual(['custom_fields.mail']);
    expect(problem('site', 'ftp://x.test')).toEqual(['custom_fields.site']);
    expect(problem('cpf', '529.982.247-24')).toEqual(['custom_fields.cpf']);
    expect(problem('cnpj', '11.222.333/0001-82')).toEqual(['custom_fields.cnpj']);
    expect(problem('desconhecido', 1)).toEqual(['custom_fields.desconhecido']);
  });
  it('null removes a value; problems are one 400 listing each field', () => {
    expect(validateCustomFields(defs, { n: null })).toEqual({ n: null });
    try {
      validateCustomFields(defs, { n: 'x', cpf: '1' });
      throw new Error('should have thrown');
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).details?.errors).toEqual([
        { field: 'custom_fields.n', code: 'INVALID_VALUE', message: 'must be a number' },
        { field: 'custom_fields.cpf', code: 'INVALID_VALUE', message: 'must be a CPF with valid check digits' },
      ]);
    }
  });
});
