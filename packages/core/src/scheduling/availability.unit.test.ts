import { describe, expect, it } from '@jest/globals';
import { bookingRefusal, computeAvailability, lastSafeMinuteBefore, planReminders, type Interval } from './availability.js';
import type { AppointmentType, Professional, Unit } from './catalog.js';

const at = new Date('2026-01-01T00:00:00Z');
const unit = (timezone: string, extra: Partial<Unit> = {}): Unit => ({
  id: 'u1',
  companyId: 'c',
  name: 'Unit',
  address: { street: null, number: null, district: null, city: null, uf: 'SP', postalCode: null, ibgeCode: null },
  timezone,
  openOnHolidays: false,
  active: true,
  createdAt: at,
  updatedAt: at,
  ...extra,
});
const type: AppointmentType = {
  id: 't1',
  companyId: 'c',
  name: 'Consulta',
  durationMinutes: 60,
  bufferBeforeMinutes: 0,
  bufferAfterMinutes: 0,
  slotIntervalMinutes: 60,
  minNoticeMinutes: 0,
  maxAdvanceDays: 3650,
  price: null,
  unitIds: ['u1'],
  reminderOffsetsMinutes: null,
  reminderText: null,
  reminderTemplate: null,
  active: true,
  createdAt: at,
  updatedAt: at,
};
/** Works every day 09:00-12:00 at u1. */
const professional = (id = 'p1'): Professional => ({
  id,
  companyId: 'c',
  name: id,
  phone: null,
  active: true,
  schedule: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ unitId: 'u1', weekday, startMinute: 540, endMinute: 720 })),
  services: [{ appointmentTypeId: 't1', unitId: 'u1' }],
  createdAt: at,
  updatedAt: at,
});

function slots(u: Unit, from: string, to: string, now: Date, options: { busy?: Map<string, Interval[]>; holidays?: string[]; t?: AppointmentType } = {}) {
  return computeAvailability({
    type: options.t ?? type,
    units: [u],
    professionals: [professional()],
    busy: options.busy ?? new Map(),
    isHoliday: (_u, date) => (options.holidays ?? []).includes(date),
    from,
    to,
    now,
    limit: 2000,
  });
}

describe('availability in the unit’s zone, converted date by date', () => {
  it('America/Manaus (UTC−4, no daylight saving): 09:00 local is 13:00Z', () => {
    const { items } = slots(unit('America/Manaus'), '2026-03-10', '2026-03-10', new Date('2026-03-01T00:00:00Z'));
    expect(items.map((s) => s.startsAt.toISOString())).toEqual(['2026-03-10T13:00:00.000Z', '2026-03-10T14:00:00.000Z', '2026-03-10T15:00:00.000Z']);
    expect(items[0]).toMatchObject({ unitId: 'u1', timezone: 'America/Manaus', professionalIds: ['p1'] });
  });

  it('America/Noronha (UTC−2): 09:00 local is 11:00Z', () => {
    const { items } = slots(unit('America/Noronha'), '2026-03-10', '2026-03-10', new Date('2026-03-01T00:00:00Z'));
    expect(items[0]!.startsAt.toISOString()).toBe('2026-03-10T11:00:00.000Z');
  });

  it('across a daylight-saving change the wall-clock hours stay: New York 09:00 is 14:00Z before and 13:00Z after 2026-03-08', () => {
    const { items } = slots(unit('America/New_York'), '2026-03-07', '2026-03-09', new Date('2026-03-01T00:00:00Z'));
    const firstOfDay = (date: string) => items.find((s) => s.startsAt.toISOString().startsWith(date))!.startsAt.toISOString();
    expect(firstOfDay('2026-03-07')).toBe('2026-03-07T14:00:00.000Z');
    expect(firstOfDay('2026-03-08')).toBe('2026-03-08T13:00:00.000Z');
    expect(firstOfDay('2026-03-09')).toBe('2026-03-09T13:00:00.000Z');
    expect(items).toHaveLength(9);
  });

  it('São Paulo’s last daylight-saving start (2018-11-04, midnight skipped): a window from 00:00 offers only real local times', () => {
    const night: Professional = { ...professional(), schedule: [{ unitId: 'u1', weekday: 0, startMinute: 0, endMinute: 180 }] };
    const { items } = computeAvailability({
      type,
      units: [unit('America/Sao_Paulo')],
      professionals: [night],
      busy: new Map(),
      isHoliday: () => false,
      from: '2018-11-04',
      to: '2018-11-04',
      now: new Date('2018-11-01T00:00:00Z'),
      limit: 2000,
    });
    // 00:00 does not exist that night (clocks jump to 01:00, UTC−2): 01:00 and 02:00 local are 03:00Z and 04:00Z.
    expect(items.map((s) => s.startsAt.toISOString())).toEqual(['2018-11-04T03:00:00.000Z', '2018-11-04T04:00:00.000Z']);
  });

  it('leaves out busy time with buffers, the notice, the advance and holidays of a closed unit', () => {
    const now = new Date('2026-03-10T12:30:00Z'); // 09:30 in São Paulo
    const busy = new Map([['p1', [{ from: new Date('2026-03-11T13:30:00Z'), to: new Date('2026-03-11T14:00:00Z') }]]]);
    const withBuffers = { ...type, bufferAfterMinutes: 15, minNoticeMinutes: 60, maxAdvanceDays: 2 };
    const { items } = slots(unit('America/Sao_Paulo'), '2026-03-10', '2026-03-13', now, { busy, holidays: ['2026-03-12'], t: withBuffers });
    expect(items.map((s) => s.startsAt.toISOString())).toEqual([
      // 03-10: 10:00 is 30 min away (notice 60); 11:00 local = 14:00Z.
      '2026-03-10T14:00:00.000Z',
      // 03-11: 09:00 (+60 min +15 buffer) ends before the busy 10:30-11:00; 10:00 overlaps it; 11:00 starts as it ends.
      '2026-03-11T12:00:00.000Z',
      '2026-03-11T14:00:00.000Z',
      // 03-12 is a holiday; 03-13 is beyond two days ahead after 12:30Z.
    ]);
  });

  it('a unit open on holidays offers them', () => {
    const { items } = slots(unit('America/Sao_Paulo', { openOnHolidays: true }), '2026-04-21', '2026-04-21', new Date('2026-04-01T00:00:00Z'), { holidays: ['2026-04-21'] });
    expect(items).toHaveLength(3);
  });

  it('the booking rules answer the 422 reasons', () => {
    const u = unit('America/Manaus');
    const base = { type, unit: u, professional: professional(), now: new Date('2026-03-01T00:00:00Z'), isHoliday: false, allowOutsideHours: false };
    expect(bookingRefusal({ ...base, startsAt: new Date('2026-03-10T13:00:00Z') })).toBeNull();
    expect(bookingRefusal({ ...base, startsAt: new Date('2026-03-10T12:00:00Z') })).toBe('outside_working_hours');
    expect(bookingRefusal({ ...base, startsAt: new Date('2026-03-10T12:00:00Z'), allowOutsideHours: true })).toBeNull();
    expect(bookingRefusal({ ...base, isHoliday: true, startsAt: new Date('2026-03-10T13:00:00Z') })).toBe('holiday');
    expect(bookingRefusal({ ...base, type: { ...type, minNoticeMinutes: 60 }, startsAt: new Date('2026-03-01T00:30:00Z') })).toBe('min_notice');
    expect(bookingRefusal({ ...base, type: { ...type, maxAdvanceDays: 1 }, startsAt: new Date('2026-03-10T13:00:00Z') })).toBe('max_advance');
    expect(bookingRefusal({ ...base, professional: { ...professional(), services: [] }, startsAt: new Date('2026-03-10T13:00:00Z') })).toBe('not_enabled');
    expect(bookingRefusal({ ...base, unit: { ...u, active: false }, startsAt: new Date('2026-03-10T13:00:00Z') })).toBe('not_enabled');
  });
});

describe('reminders', () => {
  const safeHours = { start: 8, end: 20 };
  it('go out offset before the start; outside safe hours they move earlier to the last safe minute; past ones are skipped', () => {
    const startsAt = new Date('2026-03-11T11:00:00Z'); // 08:00 in São Paulo
    const plans = planReminders({ startsAt, offsets: [1440, 120, 15], now: new Date('2026-03-10T12:00:00Z'), safeHours, timeZone: 'America/Sao_Paulo' });
    expect(plans.map((p) => [p.offsetMinutes, p.dueAt.toISOString(), p.status, p.moved])).toEqual([
      // 24 h before: 08:00 the day before, already past at 09:00.
      [1440, '2026-03-10T11:00:00.000Z', 'skipped', false],
      // 2 h before is 06:00, outside 08-20: moved to 19:59 the day before.
      [120, '2026-03-10T22:59:00.000Z', 'scheduled', true],
      [15, '2026-03-10T22:59:00.000Z', 'scheduled', true],
    ]);
  });
  it('the last safe minute before an evening time is 19:59 the same day', () => {
    expect(lastSafeMinuteBefore(new Date('2026-03-10T23:30:00Z'), safeHours, 'America/Sao_Paulo').toISOString()).toBe('2026-03-10T22:59:00.000Z');
  });
});
