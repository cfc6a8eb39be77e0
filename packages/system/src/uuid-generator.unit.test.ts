import { describe, expect, it } from '@jest/globals';
import { UuidGenerator } from './system-adapters.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('UuidGenerator', () => {
  it('makes version 7 UUIDs whose first 48 bits are the Unix milliseconds of their making', () => {
    const before = Date.now();
    const id = new UuidGenerator().newId();
    const after = Date.now();
    expect(id).toMatch(V7);
    const ms = parseInt(id.replace(/-/g, '').slice(0, 12), 16);
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(after + 1);
  });

  it('given ids made one after the other, even thousands in a millisecond, then each sorts after the one before and none repeats', () => {
    const ids = new UuidGenerator();
    const made = Array.from({ length: 20_000 }, () => ids.newId());
    expect(made.findIndex((id, i) => i > 0 && id <= made[i - 1]!)).toBe(-1);
    expect(new Set(made).size).toBe(made.length);
    expect(made.filter((id) => !V7.test(id))).toEqual([]);
  });
});
