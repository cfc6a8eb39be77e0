import type { Cents } from '../shared/money.js';
import { ValidationError } from '../shared/errors.js';

/** An item of the company's catalogue (business.md §3). Names and SKUs are unique in the company. */
export interface Product {
  id: string;
  companyId: string;
  name: string;
  price: Cents;
  sku: string | null;
  unit: string | null;
  description: string | null;
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewProduct {
  name: string;
  price: Cents;
  sku?: string | null;
  unit?: string | null;
  description?: string | null;
  active?: boolean;
}

const blankToNull = (value: string | null | undefined) => (value?.trim() ? value.trim() : null);

export function createProduct(id: string, companyId: string, now: Date, input: NewProduct): Product {
  const name = input.name.trim();
  if (!name) throw new ValidationError('name must not be empty', { field: 'name' });
  return {
    id,
    companyId,
    name,
    price: input.price,
    sku: blankToNull(input.sku),
    unit: blankToNull(input.unit),
    description: blankToNull(input.description),
    active: input.active ?? true,
    createdAt: now,
    updatedAt: now,
  };
}

/** Filters of the catalogue list. */
export interface ProductFilter {
  /** Part of the name or SKU, case-insensitive. */
  q?: string;
  active?: boolean;
}
