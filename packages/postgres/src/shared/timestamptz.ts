/** Two ASCII digits at `i` as a number. */
const twoDigits = (text: string, i: number): number => (text.charCodeAt(i) - 48) * 10 + text.charCodeAt(i + 1) - 48;

/**
 * Reads a `timestamptz` as PostgreSQL writes it with `DateStyle` ISO (`2026-11-24 09:30:40.123456+00`,
 * `…-03`, `…+05:30`, `…-03:06:28`) by arithmetic, and hands anything else (years before 1000 or after
 * 9999, `BC`, `infinity`) to `fallback`. pg's own parser (postgres-date) matches a regular expression
 * and builds the date from its groups: about a microsecond a value, and a page of 25 tickets reads
 * about 200 of them. The result is the same instant, to the millisecond (microseconds are cut, as
 * postgres-date cuts them).
 */
export function parseTimestamptz(text: string, fallback: (text: string) => Date | number | string | null): Date | number | string | null {
  const n = text.length;
  // 'YYYY-MM-DD HH:MM:SS' is 19 characters; at least '±HH' follows.
  if (n < 22 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 32 || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) {
    return fallback(text);
  }
  const year = (text.charCodeAt(0) - 48) * 1000 + (text.charCodeAt(1) - 48) * 100 + twoDigits(text, 2);
  // Date.UTC reads years 0-99 as 1900-1999: early years go the long way.
  if (year < 1000) return fallback(text);
  let i = 19;
  let ms = 0;
  if (text.charCodeAt(i) === 46) {
    i += 1;
    let scale = 100;
    for (; i < n; i += 1) {
      const c = text.charCodeAt(i);
      if (c < 48 || c > 57) break;
      ms += (c - 48) * scale;
      scale /= 10;
    }
    // Digits past the third are a fraction of a millisecond: cut (the epsilon absorbs 0.1's binary error).
    ms = Math.floor(ms + 1e-6);
  }
  const sign = text.charCodeAt(i);
  const zone = n - i;
  if ((sign !== 43 && sign !== 45) || (zone !== 3 && zone !== 6 && zone !== 9)) return fallback(text);
  // ':MM' and ':SS' of the offset, and nothing after them (' BC' is as long as ':MM').
  if ((zone >= 6 && text.charCodeAt(i + 3) !== 58) || (zone === 9 && text.charCodeAt(i + 6) !== 58)) return fallback(text);
  let offsetSeconds = twoDigits(text, i + 1) * 3600;
  if (zone >= 6) offsetSeconds += twoDigits(text, i + 4) * 60;
  if (zone === 9) offsetSeconds += twoDigits(text, i + 7);
  const local = Date.UTC(
    year,
    twoDigits(text, 5) - 1,
    twoDigits(text, 8),
    twoDigits(text, 11),
    twoDigits(text, 14),
    twoDigits(text, 17),
    ms,
  );
  return new Date(sign === 43 ? local - offsetSeconds * 1000 : local + offsetSeconds * 1000);
}
