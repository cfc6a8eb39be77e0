import { ValidationError } from '@carteiro/core';

/**
 * `If-Match: "<version>"` of a ticket write → the version; absent → undefined; anything else is a 400.
 * Both the ticket routes and the ticket message routes (ratings) read it.
 */
export function ifMatchVersion(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(value);
  if (!match) throw new ValidationError('If-Match must be the ticket version in quotes, e.g. "3"', { header: 'If-Match' });
  return Number(match[1]);
}
