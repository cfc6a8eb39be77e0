import type { Response } from 'express';
import { ValidationError, type PageRequest } from '@carteiro/core';

/** Sends the success envelope `{ success: true, data, meta? }`. */
export function ok(res: Response, data: unknown, status = 200, meta?: Record<string, unknown>): void {
  res.status(status).json(meta ? { success: true, data, meta } : { success: true, data });
}

function positiveInt(value: unknown, field: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new ValidationError(`${field} must be a positive integer`, { field, value });
  }
  return n;
}

/** `page` and `limit` from a query string; `limit` above `maxLimit` is a 400, as is anything not a positive integer. */
export function paged(query: Record<string, unknown>, maxLimit: number, defaultLimit = Math.min(20, maxLimit)): PageRequest {
  const page = positiveInt(query.page, 'page', 1);
  const limit = positiveInt(query.limit, 'limit', defaultLimit);
  if (limit > maxLimit) throw new ValidationError(`limit must be at most ${maxLimit}`, { field: 'limit', max: maxLimit });
  return { page, limit };
}
