import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import pg from 'pg';
import { parseTimestamptz } from './timestamptz.js';

// pg's own parser (postgres-date): this file does not import db.ts, which replaces it.
const reference = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ) as (text: string) => Date | number | string | null;
const pad = (value: number, width: number) => String(value).padStart(width, '0');

/** An instant as PostgreSQL writes it with DateStyle ISO in a zone `offsetSeconds` east of UTC. */
function pgText(instantMs: number, micros: number, offsetSeconds: number): string {
  const local = new Date(instantMs + offsetSeconds * 1000);
  const date = `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1, 2)}-${pad(local.getUTCDate(), 2)}`;
  const time = `${pad(local.getUTCHours(), 2)}:${pad(local.getUTCMinutes(), 2)}:${pad(local.getUTCSeconds(), 2)}`;
  const fraction = micros === 0 ? '' : `.${pad(micros, 6).replace(/0+$/, '')}`;
  const abs = Math.abs(offsetSeconds);
  const [h, m, s] = [Math.floor(abs / 3600), Math.floor((abs % 3600) / 60), abs % 60];
  const zone = `${offsetSeconds < 0 ? '-' : '+'}${pad(h, 2)}${m || s ? `:${pad(m, 2)}` : ''}${s ? `:${pad(s, 2)}` : ''}`;
  return `${date} ${time}${fraction}${zone}`;
}

describe('parseTimestamptz', () => {
  it('reads every ISO timestamptz as pg reads it, to the millisecond', () => {
    fc.assert(
      fc.property(
        // Years 1000 to 9999 (seconds since the epoch), any microsecond, offsets to ±15:59:59.
        fc.integer({ min: Date.UTC(1000, 0, 2) / 1000, max: Date.UTC(9999, 11, 30) / 1000 }),
        fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 999_999 }), fc.constantFrom(1, 10, 500_000, 999_999, 120_000)),
        fc.oneof(fc.constantFrom(0, -3 * 3600, 19_800, -(3 * 3600 + 6 * 60 + 28)), fc.integer({ min: -57_599, max: 57_599 })),
        (seconds, micros, offset) => {
          const text = pgText(seconds * 1000, micros, offset);
          const expected = reference(text) as Date;
          const actual = parseTimestamptz(text, () => {
            throw new Error(`fell back on ${text}`);
          }) as Date;
          expect(actual.getTime()).toBe(expected.getTime());
          expect(actual.getTime()).toBe(seconds * 1000 + Math.floor(micros / 1000));
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it.each(['infinity', '-infinity', '0099-06-01 00:00:00+00', '0500-01-01 12:00:00-03', '2020-01-01 00:00:00+00 BC', '12020-01-01 00:00:00+00'])(
    'hands %s to the fallback, which reads it as pg does',
    (text) => {
      let fellBack = false;
      const actual = parseTimestamptz(text, (t) => {
        fellBack = true;
        return reference(t);
      });
      expect(fellBack).toBe(true);
      const expected = reference(text);
      expect(actual instanceof Date ? actual.getTime() : actual).toEqual(expected instanceof Date ? expected.getTime() : expected);
    },
  );
});
