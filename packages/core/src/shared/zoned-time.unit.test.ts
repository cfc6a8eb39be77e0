import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { zoneOffsetMinutes, zonedDay, zonedTime, zonedToInstant } from './zoned-time.js';

describe('local time in a company time zone', () => {
  it('reads Brasília wall-clock time (UTC-3) and the calendar day', () => {
    const instant = new Date('2026-05-11T02:30:00.000Z');
    expect(zonedTime(instant, 'America/Sao_Paulo')).toEqual({ year: 2026, month: 5, day: 10, hour: 23, minute: 30, second: 0 });
    expect(zonedDay(instant, 'America/Sao_Paulo')).toBe('2026-05-10');
    expect(zoneOffsetMinutes(instant, 'America/Sao_Paulo')).toBe(-180);
  });

  it('finds the instant of a wall-clock time, across daylight saving too', () => {
    expect(zonedToInstant({ year: 2026, month: 5, day: 11, hour: 8 }, 'America/Sao_Paulo').toISOString()).toBe('2026-05-11T11:00:00.000Z');
    expect(zonedToInstant({ year: 2026, month: 7, day: 1, hour: 8 }, 'Europe/Lisbon').toISOString()).toBe('2026-07-01T07:00:00.000Z');
    expect(zonedToInstant({ year: 2026, month: 1, day: 1, hour: 8 }, 'Europe/Lisbon').toISOString()).toBe('2026-01-01T08:00:00.000Z');
  });

  it('reads the same wall clock as Intl at any instant of any zone, on both sides of every offset change', () => {
    const zones = ['America/Sao_Paulo', 'America/Noronha', 'America/Manaus', 'Europe/Lisbon', 'Europe/London', 'America/New_York', 'America/St_Johns',
      'Asia/Kathmandu', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Pacific/Chatham', 'Pacific/Apia', 'UTC'];
    const intl = new Map(zones.map((zone) => [zone, new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })]));
    const byIntl = (instant: Date, zone: string) => {
      const parts = Object.fromEntries(intl.get(zone)!.formatToParts(instant).map((p) => [p.type, Number(p.value)]));
      return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute, second: parts.second };
    };
    // Instants from 1970 to 2040, and many within minutes of a change: the Brasília changes of 2017-2019, Lisbon's,
    // Lord Howe's half-hour shift, and São Paulo's end of local mean time in 1914 (at 03:06:28 UTC, inside a quarter
    // hour), each also probed every 250 ms around it.
    const changes = ['1914-01-01T03:06:28Z', '2018-11-04T03:00:00Z', '2019-02-17T02:00:00Z', '2026-03-29T01:00:00Z', '2026-10-25T01:00:00Z', '2026-04-04T15:00:00Z', '2026-10-03T15:30:00Z'].map((t) => Date.parse(t));
    const instant = fc.oneof(
      fc.integer({ min: 0, max: Date.parse('2040-01-01T00:00:00Z') }),
      fc.tuple(fc.constantFrom(...changes), fc.integer({ min: -20 * 60_000, max: 20 * 60_000 })).map(([at, delta]) => at + delta),
    );
    fc.assert(
      fc.property(instant, fc.constantFrom(...zones), (ms, zone) => {
        expect(zonedTime(new Date(ms), zone)).toEqual(byIntl(new Date(ms), zone));
      }),
      { numRuns: 2_000 },
    );
    for (const at of changes) for (let ms = at - 5_000; ms <= at + 5_000; ms += 250) for (const zone of zones) expect(zonedTime(new Date(ms), zone)).toEqual(byIntl(new Date(ms), zone));
  });
});
