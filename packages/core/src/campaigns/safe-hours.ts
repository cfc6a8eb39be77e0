import type { SafeHours } from '../companies/index.js';
import { DomainError } from '../shared/errors.js';
import { zonedClock, zonedIso, zonedTime, zonedToInstant } from '../shared/zoned-time.js';

/** Where the safe-hours error points its reader. */
export const SAFE_HOURS_DOCS_URL = 'https://github.com/carteiro/carteiro/blob/main/docs/campaigns.md#safe-hours';

/** Whether the instant falls inside the company's safe window `[start, end)` of its local day. */
export function isWithinSafeHours(instant: Date, safeHours: SafeHours, timeZone: string): boolean {
  const t = zonedTime(instant, timeZone);
  const minutes = t.hour * 60 + t.minute;
  return minutes >= safeHours.start * 60 && minutes < safeHours.end * 60;
}

/** The instant itself when inside the window, otherwise the next start of the window. */
export function nextSafeInstant(instant: Date, safeHours: SafeHours, timeZone: string): Date {
  if (isWithinSafeHours(instant, safeHours, timeZone)) return instant;
  const t = zonedTime(instant, timeZone);
  const beforeStart = t.hour * 60 + t.minute < safeHours.start * 60;
  const day = beforeStart ? t.day : t.day + 1;
  return zonedToInstant({ year: t.year, month: t.month, day, hour: safeHours.start }, timeZone);
}

/** Every detail field of the specification's SAFE_HOUR_VIOLATION error. */
export interface SafeHourViolationDetails {
  safe_hour_start: number;
  safe_hour_end: number;
  current_hour_brasilia: number;
  current_minute_brasilia: number;
  current_time_brasilia: string;
  next_allowed_at: string;
  next_allowed_at_brasilia: string;
  suggested_schedule_at: string;
  retry_after_seconds: number;
  docs_url: string;
}

export function safeHourViolation(now: Date, safeHours: SafeHours, timeZone: string): DomainError {
  const t = zonedTime(now, timeZone);
  const next = nextSafeInstant(now, safeHours, timeZone);
  const retryAfter = Math.max(1, Math.ceil((next.getTime() - now.getTime()) / 1000));
  const details: SafeHourViolationDetails = {
    safe_hour_start: safeHours.start,
    safe_hour_end: safeHours.end,
    current_hour_brasilia: t.hour,
    current_minute_brasilia: t.minute,
    current_time_brasilia: zonedClock(now, timeZone),
    next_allowed_at: next.toISOString(),
    next_allowed_at_brasilia: zonedIso(next, timeZone),
    // The window's first instant is itself inside the window, so it is accepted as schedule_at as is.
    suggested_schedule_at: next.toISOString(),
    retry_after_seconds: retryAfter,
    docs_url: SAFE_HOURS_DOCS_URL,
  };
  return new DomainError(
    'SAFE_HOUR_VIOLATION',
    `Campaigns may only start between ${safeHours.start}:00 and ${safeHours.end}:00 (${timeZone}); schedule it with options.schedule_at`,
    details as unknown as Record<string, unknown>,
    retryAfter,
  );
}
