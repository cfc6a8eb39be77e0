import { describe, expect, it } from '@jest/globals';
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
});
