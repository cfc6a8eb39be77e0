import { describe, expect, it } from '@jest/globals';
import { isoString } from './ticket-views.js';

describe('isoString', () => {
  it('writes what toISOString writes, for every millisecond field and across the years it formats itself', () => {
    const edges = [0, -1, 1, 999, Date.UTC(1000, 0, 1), Date.UTC(1000, 0, 1) - 1, Date.UTC(9999, 11, 31, 23, 59, 59, 999), Date.UTC(10000, 0, 1), Date.UTC(2024, 1, 29, 5, 6, 7, 8), Date.UTC(-5, 0, 1), 8.64e15, -8.64e15];
    // A fixed linear congruential sequence over about ±3,000 years around 1970.
    let seed = 12345;
    const spread = Array.from({ length: 5000 }, () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return (seed / 2147483648 - 0.5) * 2 * 1e14 + (seed % 1000);
    });
    for (const time of [...edges, ...spread]) {
      const date = new Date(time);
      expect([time, isoString(date)]).toEqual([time, date.toISOString()]);
    }
  });

  it('throws as toISOString does on an invalid date', () => {
    expect(() => isoString(new Date(Number.NaN))).toThrow(RangeError);
  });
});
