/** Wall-clock fields of an instant in an IANA time zone, computed with Intl (no date library in the core). */
export interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export function localTime(instant: Date, timeZone: string): LocalTime {
  const parts = Object.fromEntries(formatter(timeZone).formatToParts(instant).map((p) => [p.type, p.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** The calendar day (`YYYY-MM-DD`) of an instant in a time zone: the key of daily counters. */
export function localDay(instant: Date, timeZone: string): string {
  const t = localTime(instant, timeZone);
  return `${t.year}-${String(t.month).padStart(2, '0')}-${String(t.day).padStart(2, '0')}`;
}

/** The UTC offset of the zone at an instant, in minutes (Brasília: -180). */
export function offsetMinutes(instant: Date, timeZone: string): number {
  const t = localTime(instant, timeZone);
  const asUtc = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
  return Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
}

/** The instant at which the wall clock of the zone reads the given fields. */
export function fromLocalTime(fields: { year: number; month: number; day: number; hour: number; minute?: number }, timeZone: string): Date {
  const guess = Date.UTC(fields.year, fields.month - 1, fields.day, fields.hour, fields.minute ?? 0);
  // Two passes settle the offset even across a daylight-saving change.
  let instant = guess - offsetMinutes(new Date(guess), timeZone) * 60_000;
  instant = guess - offsetMinutes(new Date(instant), timeZone) * 60_000;
  return new Date(instant);
}
