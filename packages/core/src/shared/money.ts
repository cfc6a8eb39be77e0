import { ValidationError } from './errors.js';

/**
 * Money in the core is an integer number of centavos (BRL). The API takes and answers a JSON
 * number of reais with at most two decimals (business.md §10); these helpers are the only
 * place where the two meet.
 */
export type Cents = number;

/** Largest amount accepted: R$ 999,999,999.99 (fits a PostgreSQL bigint and a double exactly). */
export const MAX_CENTS = 99_999_999_999;

/** Reais (≤ 2 decimals) → centavos; more decimals, a negative or a huge amount is a 400. */
export function toCents(reais: number, field = 'value'): Cents {
  if (typeof reais !== 'number' || !Number.isFinite(reais)) throw new ValidationError(`${field} must be a number`, { field });
  const cents = Math.round(reais * 100);
  if (Math.abs(reais * 100 - cents) > 1e-6) throw new ValidationError(`${field} has more than 2 decimals`, { field });
  if (cents < 0) throw new ValidationError(`${field} must not be negative`, { field });
  if (cents > MAX_CENTS) throw new ValidationError(`${field} is too large`, { field });
  return cents;
}

/** Centavos → reais as a JSON number. */
export function fromCents(cents: Cents): number {
  return cents / 100;
}

/** `R$ 1.234,56` (Brazilian grouping, always two decimals). */
export function formatBrl(cents: Cents): string {
  const negative = cents < 0;
  const abs = Math.abs(Math.round(cents));
  const units = Math.floor(abs / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  const decimals = String(abs % 100).padStart(2, '0');
  return `${negative ? '-' : ''}R$ ${units},${decimals}`;
}
