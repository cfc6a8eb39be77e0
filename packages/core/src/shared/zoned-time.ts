/** Wall-clock fields of an instant in an IANA time zone (Intl only: no date library in the core). */
export interface ZonedTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
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

/** The zone's wall clock at `ms` read by Intl (seconds resolution): the reference, and the costly part. */
function formattedTime(ms: number, timeZone: string): ZonedTime {
  const parts: Record<string, string> = {};
  for (const p of formatterFor(timeZone).formatToParts(ms)) parts[p.type] = p.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** The zone's offset at `ms`, in ms, as Intl reads it (local wall clock − UTC, to the second). */
function formattedOffsetMs(ms: number, timeZone: string): number {
  const t = formattedTime(ms, timeZone);
  return Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second) - Math.floor(ms / 1000) * 1000;
}

/**
 * Offsets by zone and quarter hour of UTC time. A zone changes its offset at most once in a quarter hour (changes
 * are hours, or half hours, apart), so when the offset is the same at both ends of a quarter hour it holds inside
 * it, and every instant of that quarter hour is read by arithmetic instead of Intl, about 20 times cheaper: a
 * campaign send reads the zone's clock three or four times (safe hours, placeholders, the day of its counters).
 */
const QUARTER_HOUR_MS = 15 * 60_000;
const CACHED_QUARTERS_PER_ZONE = 4_096;
const offsets = new Map<string, Map<number, number>>();

function offsetMs(ms: number, timeZone: string): number {
  const quarter = Math.floor(ms / QUARTER_HOUR_MS);
  let zone = offsets.get(timeZone);
  const cached = zone?.get(quarter);
  if (cached !== undefined) return cached;
  const start = quarter * QUARTER_HOUR_MS;
  const atStart = formattedOffsetMs(start, timeZone);
  // A change inside this quarter hour: read this instant alone.
  if (formattedOffsetMs(start + QUARTER_HOUR_MS - 1000, timeZone) !== atStart) return formattedOffsetMs(ms, timeZone);
  if (!zone) offsets.set(timeZone, (zone = new Map()));
  if (zone.size >= CACHED_QUARTERS_PER_ZONE) zone.clear();
  zone.set(quarter, atStart);
  return atStart;
}

export function zonedTime(instant: Date, timeZone: string): ZonedTime {
  const ms = instant.getTime();
  const local = new Date(Math.floor(ms / 1000) * 1000 + offsetMs(ms, timeZone));
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
  };
}

/** UTC offset of the zone at an instant, in minutes (Brasília: -180). */
export function zoneOffsetMinutes(instant: Date, timeZone: string): number {
  const t = zonedTime(instant, timeZone);
  const asUtc = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
  return Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
}

/** The instant at which the zone's wall clock reads the given fields (day overflow allowed). */
export function zonedToInstant(fields: { year: number; month: number; day: number; hour: number; minute?: number }, timeZone: string): Date {
  const guess = Date.UTC(fields.year, fields.month - 1, fields.day, fields.hour, fields.minute ?? 0);
  // Two passes settle the offset across a daylight-saving change.
  let instant = guess - zoneOffsetMinutes(new Date(guess), timeZone) * 60_000;
  instant = guess - zoneOffsetMinutes(new Date(instant), timeZone) * 60_000;
  return new Date(instant);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `YYYY-MM-DD` of an instant in a zone: the key of daily counters. */
export function zonedDay(instant: Date, timeZone: string): string {
  const t = zonedTime(instant, timeZone);
  return `${t.year}-${pad(t.month)}-${pad(t.day)}`;
}

/** `HH:MM` in the zone. */
export function zonedClock(instant: Date, timeZone: string): string {
  const t = zonedTime(instant, timeZone);
  return `${pad(t.hour)}:${pad(t.minute)}`;
}

/** `DD/MM/YYYY` in the zone. */
export function zonedDateBr(instant: Date, timeZone: string): string {
  const t = zonedTime(instant, timeZone);
  return `${pad(t.day)}/${pad(t.month)}/${t.year}`;
}

/** ISO 8601 with the zone's offset, e.g. `2026-01-16T08:00:00.000-03:00`. */
export function zonedIso(instant: Date, timeZone: string): string {
  const t = zonedTime(instant, timeZone);
  const offset = zoneOffsetMinutes(instant, timeZone);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const ms = pad(instant.getUTCMilliseconds(), 3);
  return `${t.year}-${pad(t.month)}-${pad(t.day)}T${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}.${ms}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}
