import type { SafeHours } from '../companies/index.js';
import { zonedTime, zonedToInstant, zoneOffsetMinutes } from '../shared/zoned-time.js';
import type { AppointmentType, Professional, Unit } from './catalog.js';

/** A time range `[from, to)`. */
export interface Interval {
  from: Date;
  to: Date;
}

/** One free slot: a start in a unit, with the professionals free for it. */
export interface AvailableSlot {
  startsAt: Date;
  endsAt: Date;
  unitId: string;
  /** The unit's zone (its `local` fields). */
  timezone: string;
  professionalIds: string[];
}

export interface AvailabilityInput {
  type: AppointmentType;
  /** The units to look in (already narrowed to the type's units and the request's). */
  units: readonly Unit[];
  /** The candidate professionals (active); only those offering the type at a unit count there. */
  professionals: readonly Professional[];
  /** Busy intervals (appointments with their buffers, blocks) by professional, sorted by `from`. */
  busy: ReadonlyMap<string, readonly Interval[]>;
  /** Whether a local date (`YYYY-MM-DD`) is a national or state holiday of the unit's UF. */
  isHoliday(unit: Unit, date: string): boolean;
  /** Unit-zone dates, both inclusive. */
  from: string;
  to: string;
  now: Date;
  /** Most slots answered (2,000); `truncated` says when more exist. */
  limit: number;
  /** Only slots starting strictly after this instant (alternatives after a taken slot). */
  after?: Date;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

/** `YYYY-MM-DD` → UTC midnight ms of that calendar date (calendar arithmetic only). */
export function parseDate(date: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return null;
  const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  const back = new Date(ms);
  if (back.getUTCFullYear() !== Number(match[1]) || back.getUTCMonth() !== Number(match[2]) - 1 || back.getUTCDate() !== Number(match[3])) return null;
  return ms;
}

function dateKey(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Calendar dates from `from` to `to`, both inclusive. */
export function datesBetween(from: string, to: string): string[] {
  const a = parseDate(from);
  const b = parseDate(to);
  if (a === null || b === null) return [];
  const out: string[] = [];
  for (let ms = a; ms <= b; ms += DAY) out.push(dateKey(ms));
  return out;
}

/** The local date (`YYYY-MM-DD`), weekday (0 Sunday) and minute of the day of an instant in a zone. */
export function localParts(instant: Date, timeZone: string): { date: string; weekday: number; minute: number } {
  const t = zonedTime(instant, timeZone);
  const ms = Date.UTC(t.year, t.month - 1, t.day);
  return { date: dateKey(ms), weekday: new Date(ms).getUTCDay(), minute: t.hour * 60 + t.minute };
}

/** The instant a unit's wall clock reads `minute` minutes after midnight of `date` (converted per date: DST-safe). */
export function wallClockInstant(date: string, minute: number, timeZone: string): Date {
  const ms = parseDate(date)!;
  const d = new Date(ms);
  return zonedToInstant({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: 0, minute }, timeZone);
}

function overlapsAny(sorted: readonly Interval[] | undefined, from: number, to: number): boolean {
  if (!sorted || sorted.length === 0) return false;
  // Count the intervals starting before `to` (binary search on the sorted starts).
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]!.from.getTime() < to) lo = mid + 1;
    else hi = mid;
  }
  // A professional's busy intervals never overlap (the exclusion constraint), so sorted by start they are
  // sorted by end too: only the last one starting before `to` can reach past `from`.
  return lo > 0 && sorted[lo - 1]!.to.getTime() > from;
}

const dayInfos = new Map<string, { midnight: number; uniform: boolean }>();

/** Local midnight of a date in a zone and whether that day has 24 hours (memoised: zone rules do not change at run time). */
function dayOf(date: string, timeZone: string): { midnight: number; uniform: boolean } {
  const key = `${timeZone}|${date}`;
  let day = dayInfos.get(key);
  if (!day) {
    const midnight = wallClockInstant(date, 0, timeZone).getTime();
    day = { midnight, uniform: wallClockInstant(date, 1440, timeZone).getTime() - midnight === DAY && localParts(new Date(midnight), timeZone).minute === 0 };
    if (dayInfos.size > 100_000) dayInfos.clear();
    dayInfos.set(key, day);
  }
  return day;
}

const dayOffsets = new Map<string, readonly [number, number]>();

/** The zone's UTC offset at an instant, in minutes, with Intl called twice per UTC day and zone (memoised). */
export function offsetAt(instant: Date, timeZone: string): number {
  const dayStart = Math.floor(instant.getTime() / DAY) * DAY;
  const key = `${timeZone}|${dayStart}`;
  let offsets = dayOffsets.get(key);
  if (!offsets) {
    offsets = [zoneOffsetMinutes(new Date(dayStart), timeZone), zoneOffsetMinutes(new Date(dayStart + DAY - 1), timeZone)] as const;
    if (dayOffsets.size > 100_000) dayOffsets.clear();
    dayOffsets.set(key, offsets);
  }
  // The same offset at both ends of the day: no change inside it (zones change at most once a day).
  return offsets[0] === offsets[1] ? offsets[0] : zoneOffsetMinutes(instant, timeZone);
}

/** `local { date, time, timezone }` of an instant (the answers' wall-clock fields). */
export function localFields(instant: Date, timeZone: string): { date: string; time: string; timezone: string } {
  const shifted = new Date(instant.getTime() + offsetAt(instant, timeZone) * MINUTE).toISOString();
  return { date: shifted.slice(0, 10), time: shifted.slice(11, 16), timezone: timeZone };
}

/** Whether a professional works at a unit for the whole `[startMinute, startMinute + duration)` of a weekday. */
export function withinSchedule(professional: Professional, unitId: string, weekday: number, startMinute: number, durationMinutes: number): boolean {
  return professional.schedule.some((e) => e.unitId === unitId && e.weekday === weekday && e.startMinute <= startMinute && startMinute + durationMinutes <= e.endMinute);
}

export function offers(professional: Professional, typeId: string, unitId: string): boolean {
  return professional.services.some((s) => s.appointmentTypeId === typeId && s.unitId === unitId);
}

/** Whether the professional's busy time leaves `[start - before, end + after)` free. */
export function isFree(busy: readonly Interval[] | undefined, type: AppointmentType, startsAt: Date): boolean {
  const from = startsAt.getTime() - type.bufferBeforeMinutes * MINUTE;
  const to = startsAt.getTime() + (type.durationMinutes + type.bufferAfterMinutes) * MINUTE;
  return !overlapsAny(busy, from, to);
}

/**
 * The free slots of a type between two unit-zone dates. Hours are wall-clock times of each unit's
 * zone, converted to instants date by date (so a daylight-saving change, or a zone without one
 * such as America/Manaus or America/Noronha, needs no fixed offset). A slot is offered when it
 * starts on the type's grid inside a working window of a professional who offers the type at the
 * unit, fits in the window, respects notice and advance, is not on a holiday of a unit closed on
 * holidays, and leaves the professional's busy time free including the type's buffers.
 */
export function computeAvailability(input: AvailabilityInput): { items: AvailableSlot[]; truncated: boolean } {
  const { type, now } = input;
  const earliest = now.getTime() + type.minNoticeMinutes * MINUTE;
  const latest = now.getTime() + type.maxAdvanceDays * DAY;
  const after = input.after?.getTime() ?? -Infinity;
  const before = type.bufferBeforeMinutes * MINUTE;
  const span = (type.durationMinutes + type.bufferAfterMinutes) * MINUTE;
  // Slots by unit and start (ms): the professionals free for each.
  const slots = new Map<string, Map<number, string[]>>();
  const dates = datesBetween(input.from, input.to).map((date) => ({ date, weekday: new Date(parseDate(date)!).getUTCDay() }));
  for (const unit of input.units) {
    const staff = input.professionals.filter((p) => p.active && offers(p, type.id, unit.id));
    if (staff.length === 0) continue;
    const byStart = new Map<number, string[]>();
    slots.set(unit.id, byStart);
    for (const { date, weekday } of dates) {
      if (!unit.openOnHolidays && input.isHoliday(unit, date)) continue;
      // On a day of 24 hours a wall time is local midnight plus its minutes; only a daylight-saving day converts
      // each slot with Intl (the slow part) and drops the wall times the change skips.
      const day = dayOf(date, unit.timezone);
      const startOf = (minute: number): number | null => {
        if (day.uniform) return day.midnight + minute * MINUTE;
        const instant = wallClockInstant(date, minute, unit.timezone);
        const local = localParts(instant, unit.timezone);
        return local.date === date && local.minute === minute % 1440 ? instant.getTime() : null;
      };
      for (const professional of staff) {
        const busy = input.busy.get(professional.id);
        for (const window of professional.schedule) {
          if (window.unitId !== unit.id || window.weekday !== weekday) continue;
          for (let m = window.startMinute; m + type.durationMinutes <= window.endMinute; m += type.slotIntervalMinutes) {
            const t = startOf(m);
            if (t === null || t < earliest || t > latest || t <= after) continue;
            if (overlapsAny(busy, t - before, t + span)) continue;
            const free = byStart.get(t);
            if (!free) byStart.set(t, [professional.id]);
            else if (!free.includes(professional.id)) free.push(professional.id);
          }
        }
      }
    }
  }
  const all: AvailableSlot[] = [];
  const unitsById = new Map(input.units.map((u) => [u.id, u]));
  for (const [unitId, byStart] of slots) {
    const timezone = unitsById.get(unitId)!.timezone;
    for (const [t, professionalIds] of byStart) {
      all.push({ startsAt: new Date(t), endsAt: new Date(t + type.durationMinutes * MINUTE), unitId, timezone, professionalIds: professionalIds.sort() });
    }
  }
  all.sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime() || (a.unitId < b.unitId ? -1 : a.unitId > b.unitId ? 1 : 0));
  return { items: all.slice(0, input.limit), truncated: all.length > input.limit };
}

/** Why a requested start cannot be booked (422 `details.reason`), or null. */
export type BookingRefusal = 'outside_working_hours' | 'min_notice' | 'max_advance' | 'holiday' | 'not_enabled';

/** The checks of a booking other than the busy time (which the exclusion constraint decides). */
export function bookingRefusal(input: {
  type: AppointmentType;
  unit: Unit;
  professional: Professional;
  startsAt: Date;
  now: Date;
  isHoliday: boolean;
  allowOutsideHours: boolean;
}): BookingRefusal | null {
  const { type, unit, professional, startsAt, now } = input;
  // A unit deactivated with appointments booked keeps them, but takes no new ones nor moves (as availability, which
  // lists active units only): a unit named in the request is refused here like an inactive professional.
  if (!type.unitIds.includes(unit.id) || !unit.active || !professional.active || !offers(professional, type.id, unit.id)) return 'not_enabled';
  if (startsAt.getTime() < now.getTime() + type.minNoticeMinutes * MINUTE) return 'min_notice';
  if (startsAt.getTime() > now.getTime() + type.maxAdvanceDays * DAY) return 'max_advance';
  if (input.isHoliday && !unit.openOnHolidays && !input.allowOutsideHours) return 'holiday';
  if (!input.allowOutsideHours) {
    const local = localParts(startsAt, unit.timezone);
    if (!withinSchedule(professional, unit.id, local.weekday, local.minute, type.durationMinutes)) return 'outside_working_hours';
  }
  return null;
}

/** A reminder as planned for an appointment start. */
export interface PlannedReminder {
  offsetMinutes: number;
  dueAt: Date;
  status: 'scheduled' | 'skipped';
  skipReason: string | null;
  /** True when safe hours moved it earlier. */
  moved: boolean;
}

/**
 * When each reminder goes out: `startsAt − offset`; outside the company's safe hours it moves
 * **earlier**, to the last safe minute before; one already due (or moved into the past) is skipped,
 * and none is ever due at or after the start.
 */
export function planReminders(input: { startsAt: Date; offsets: readonly number[]; now: Date; safeHours: SafeHours; timeZone: string }): PlannedReminder[] {
  return [...new Set(input.offsets)]
    .sort((a, b) => b - a)
    .map((offset) => {
      let due = new Date(input.startsAt.getTime() - offset * MINUTE);
      const moved = !withinSafe(due, input.safeHours, input.timeZone);
      if (moved) due = lastSafeMinuteBefore(due, input.safeHours, input.timeZone);
      if (due.getTime() <= input.now.getTime()) return { offsetMinutes: offset, dueAt: due, status: 'skipped' as const, skipReason: 'past_due', moved };
      if (due.getTime() >= input.startsAt.getTime()) return { offsetMinutes: offset, dueAt: due, status: 'skipped' as const, skipReason: 'too_late', moved };
      return { offsetMinutes: offset, dueAt: due, status: 'scheduled' as const, skipReason: null, moved };
    });
}

function withinSafe(instant: Date, safeHours: SafeHours, timeZone: string): boolean {
  const t = zonedTime(instant, timeZone);
  const minutes = t.hour * 60 + t.minute;
  return minutes >= safeHours.start * 60 && minutes < safeHours.end * 60;
}

/** The last minute inside the safe window at or before `instant` (which lies outside it). */
export function lastSafeMinuteBefore(instant: Date, safeHours: SafeHours, timeZone: string): Date {
  const t = zonedTime(instant, timeZone);
  const minutes = t.hour * 60 + t.minute;
  // Before the window opens: the end of the previous day's window.
  const day = minutes < safeHours.start * 60 ? t.day - 1 : t.day;
  return zonedToInstant({ year: t.year, month: t.month, day, hour: safeHours.end, minute: -1 }, timeZone);
}
