import type { KeyMode } from '../api-keys/index.js';
import type { ChannelRepositories } from '../channel/index.js';
import { IdempotentRequests, type CampaignRepositories, type IdempotencyInput } from '../campaigns/index.js';
import type { Company, CompanyRepositories } from '../companies/index.js';
import type { ContactRepositories } from '../contacts/index.js';
import { assertWithinQuota, quotaWindow } from '../quotas/index.js';
import type { Clock } from '../shared/clock.js';
import { transition } from '../shared/decider.js';
import { apiActor, type DomainEvent, type EventActor } from '../shared/domain-event.js';
import { DomainError, NotFoundError, ValidationError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/id-generator.js';
import { transactionWithRetry, type Repositories, type UnitOfWork } from '../shared/unit-of-work.js';
import { zonedDay } from '../shared/zoned-time.js';
import type { SetorRepositories } from '../setores/index.js';
import type { TicketRepositories } from '../tickets/index.js';
import { appointmentDecider, type Appointment, type AppointmentStatus, type Attendance } from './appointment.js';
import {
  bookingRefusal,
  computeAvailability,
  isFree,
  localFields,
  localParts,
  offers,
  parseDate,
  planReminders,
  wallClockInstant,
  withinSchedule,
  type AvailableSlot,
  type Interval,
} from './availability.js';
import { DEFAULT_REMINDER_OFFSETS, validateReminderOffsets, type AppointmentType, type Professional, type Unit } from './catalog.js';
import type { HolidayCalendar } from './holiday-calendar.js';
import { resolveSchedulingClient } from './scheduled-messages.js';
import { wakeTimedSendAt } from './scheduling-queues.js';
import { BusyTimeConflict, type AppointmentFilter, type SchedulingRepositories } from './scheduling-repositories.js';
import { queueAppointmentNotice } from './appointment-notices.js';
import { newTimedSend, type ScheduledMessage } from './scheduled-message.js';
import { chooseTimedSendBox } from './timed-send-box.js';

const MINUTE = 60_000;
const DAY = 86_400_000;
/** Most slots one availability answer holds. */
export const MAX_AVAILABILITY_ITEMS = 2_000;

/** Wall-clock fields of an instant where it matters (`local { date, time, timezone }`). */
export function localOf(instant: Date, timezone: string): { date: string; time: string; timezone: string } {
  return localFields(instant, timezone);
}

/** A free slot offered instead of a taken one (`details.alternatives[]`). */
export interface Alternative {
  starts_at: string;
  ends_at: string;
  local: { date: string; time: string; timezone: string };
  professional_id: string;
  unit_id: string;
}

type BookingAreas = SchedulingRepositories & CampaignRepositories & ChannelRepositories & CompanyRepositories & ContactRepositories & SetorRepositories & TicketRepositories;

/** Holidays of a unit's UF, by year (cached per call). */
function holidayCheck(calendar: HolidayCalendar): (unit: Unit, date: string) => boolean {
  const cache = new Map<string, ReadonlySet<string>>();
  return (unit, date) => {
    const key = `${date.slice(0, 4)}|${unit.address.uf ?? ''}`;
    let set = cache.get(key);
    if (!set) {
      set = calendar.holidays(Number(date.slice(0, 4)), unit.address.uf);
      cache.set(key, set);
    }
    return set.has(date);
  };
}

/** GET /v1/appointments/availability. */
export class GetAvailability {
  constructor(
    private readonly repos: Repositories<SchedulingRepositories>,
    private readonly clock: Clock,
    private readonly calendar: HolidayCalendar,
  ) {}

  async execute(
    company: Company,
    query: { appointmentTypeId: string; from: string; to: string; professionalId?: string; unitId?: string },
  ): Promise<{ timezone: string; items: AvailableSlot[]; truncated: boolean }> {
    const from = parseDate(query.from);
    const to = parseDate(query.to);
    if (from === null) throw new ValidationError('from must be a date YYYY-MM-DD', { field: 'from' });
    if (to === null) throw new ValidationError('to must be a date YYYY-MM-DD', { field: 'to' });
    if (to < from) throw new ValidationError('to must not be before from', { field: 'to' });
    if ((to - from) / DAY > 30) throw new ValidationError('from-to spans at most 31 days', { field: 'to' });
    const type = await this.repos.schedulingCatalog.findType(company.id, query.appointmentTypeId);
    if (!type || !type.active) throw new NotFoundError('Appointment type');
    return availability(this.repos, company, type, { ...query, now: this.clock.now(), isHoliday: holidayCheck(this.calendar), limit: MAX_AVAILABILITY_ITEMS });
  }
}

async function availability(
  repos: Repositories<SchedulingRepositories>,
  company: Company,
  type: AppointmentType,
  q: { from: string; to: string; professionalId?: string; unitId?: string; now: Date; isHoliday: (unit: Unit, date: string) => boolean; limit: number; after?: Date },
): Promise<{ timezone: string; items: AvailableSlot[]; truncated: boolean }> {
  // Independent reads in parallel (outside a transaction each takes its own connection).
  const [listedUnits, listed, professional] = await Promise.all([
    repos.schedulingCatalog.listUnits(company.id, {}),
    repos.schedulingCatalog.listProfessionals(company.id, { appointmentTypeId: type.id, active: true }),
    q.professionalId ? repos.schedulingCatalog.findProfessional(company.id, q.professionalId) : Promise.resolve(null),
  ]);
  let units = listedUnits.filter((u) => u.active && type.unitIds.includes(u.id));
  if (q.unitId) {
    if (!listedUnits.some((u) => u.id === q.unitId)) throw new NotFoundError('Unit');
    units = units.filter((u) => u.id === q.unitId);
  }
  let professionals = listed;
  if (q.professionalId) {
    if (!professional) throw new NotFoundError('Professional');
    professionals = professionals.filter((p) => p.id === professional.id);
  }
  const timezone = units.length > 0 && units.every((u) => u.timezone === units[0]!.timezone) ? units[0]!.timezone : company.timezone;
  if (units.length === 0 || professionals.length === 0) return { timezone, items: [], truncated: false };
  // Busy time from a day before the first date to a day after the last (any zone's day fits in it).
  const busyFrom = new Date(parseDate(q.from)! - 2 * DAY);
  const busyTo = new Date(parseDate(q.to)! + 3 * DAY);
  const busy = await repos.appointments.busyBetween(professionals.map((p) => p.id), busyFrom, busyTo);
  const result = computeAvailability({ type, units, professionals, busy, isHoliday: q.isHoliday, from: q.from, to: q.to, now: q.now, limit: q.limit, ...(q.after ? { after: q.after } : {}) });
  return { timezone, ...result };
}

/** The next free slots after `after` for the same type and unit (409 `details.alternatives`). */
async function alternatives(repos: Repositories<SchedulingRepositories>, company: Company, type: AppointmentType, unit: Unit, after: Date, now: Date, isHoliday: (unit: Unit, date: string) => boolean): Promise<Alternative[]> {
  const start = zonedDay(after, unit.timezone);
  const last = new Date(parseDate(start)! + 30 * DAY).toISOString().slice(0, 10);
  const { items } = await availability(repos, company, type, { from: start, to: last, unitId: unit.id, now, isHoliday, limit: 3, after });
  return items.map((slot) => ({
    starts_at: slot.startsAt.toISOString(),
    ends_at: slot.endsAt.toISOString(),
    local: localOf(slot.startsAt, unit.timezone),
    professional_id: slot.professionalIds[0]!,
    unit_id: slot.unitId,
  }));
}

/** POST /v1/appointments after the schema. */
export interface BookAppointmentCommand {
  companyId: string;
  keyMode: KeyMode;
  appointmentTypeId: string;
  startsAt: Date;
  clientId?: string | null;
  phone?: string | null;
  name?: string | null;
  professionalId?: string | null;
  unitId?: string | null;
  description?: string | null;
  ticketId?: string | null;
  setorId?: string | null;
  reminderOffsetsMinutes?: number[] | null;
  allowOutsideHours?: boolean;
}

/** The catalogue names an appointment's answer shows beside its ids (null: the record is gone). */
export interface AppointmentNames {
  appointmentType: string | null;
  professional: string | null;
  unit: string | null;
}

/** An appointment with its reminders and the names of its type, professional and unit (the detail answer). */
export interface AppointmentDetail {
  appointment: Appointment;
  reminders: ScheduledMessage[];
  names: AppointmentNames;
}

/** The names of one appointment's type, professional and unit: three reads by primary key. */
export async function appointmentNames(repos: Repositories<SchedulingRepositories>, appointment: Appointment): Promise<AppointmentNames> {
  const [type, professional, unit] = await Promise.all([
    repos.schedulingCatalog.findType(appointment.companyId, appointment.appointmentTypeId),
    repos.schedulingCatalog.findProfessional(appointment.companyId, appointment.professionalId),
    repos.schedulingCatalog.findUnit(appointment.companyId, appointment.unitId),
  ]);
  return { appointmentType: type?.name ?? null, professional: professional?.name ?? null, unit: unit?.name ?? null };
}

const noNames = (): AppointmentNames => ({ appointmentType: null, professional: null, unit: null });

/**
 * The names of the types, professionals and units of a page of appointments, by id: one read of
 * each catalogue of the company (a company's catalogue is tens of records, a page up to a hundred).
 */
export async function catalogueNames(repos: Repositories<SchedulingRepositories>, companyId: string): Promise<(appointment: Appointment) => AppointmentNames> {
  const [types, professionals, units] = await Promise.all([
    repos.schedulingCatalog.listTypes(companyId, {}),
    repos.schedulingCatalog.listProfessionals(companyId, {}),
    repos.schedulingCatalog.listUnits(companyId, {}),
  ]);
  const name = (list: readonly { id: string; name: string }[]) => new Map(list.map((r) => [r.id, r.name]));
  const [typeNames, professionalNames, unitNames] = [name(types), name(professionals), name(units)];
  return (a) => ({ appointmentType: typeNames.get(a.appointmentTypeId) ?? null, professional: professionalNames.get(a.professionalId) ?? null, unit: unitNames.get(a.unitId) ?? null });
}

function unprocessable(reason: string): DomainError {
  const messages: Record<string, string> = {
    outside_working_hours: 'The time is outside the working hours of the professional at the unit',
    min_notice: 'The time is closer than the appointment type’s minimum notice',
    max_advance: 'The time is further ahead than the appointment type allows',
    holiday: 'The unit is closed on that holiday',
    not_enabled: 'The professional does not offer this appointment type at this unit, or one of them is inactive',
  };
  return new DomainError('UNPROCESSABLE', messages[reason] ?? reason, { reason });
}

/** The event data of appointment.created / .rescheduled. */
function appointmentData(a: Appointment): Record<string, unknown> {
  return {
    appointmentId: a.id,
    status: a.status,
    startsAt: a.startsAt.toISOString(),
    endsAt: a.endsAt.toISOString(),
    timezone: a.timezone,
    appointmentTypeId: a.appointmentTypeId,
    professionalId: a.professionalId,
    unitId: a.unitId,
    clientId: a.clientId,
    clientPhone: a.clientPhone,
    ticketId: a.ticketId,
  };
}

function event(ids: IdGenerator, a: Appointment, name: DomainEvent['event'], at: Date, data: Record<string, unknown>, actor: EventActor = apiActor): DomainEvent {
  return { id: ids.newId(), event: name, companyId: a.companyId, setorId: a.setorId, occurredAt: at, data, actor };
}

function busyOf(type: AppointmentType, startsAt: Date): Interval {
  return {
    from: new Date(startsAt.getTime() - type.bufferBeforeMinutes * MINUTE),
    to: new Date(startsAt.getTime() + (type.durationMinutes + type.bufferAfterMinutes) * MINUTE),
  };
}

/** Shared steps of booking and rescheduling: where, with whom, and the reminders. */
abstract class AppointmentWriter {
  constructor(
    protected readonly uow: UnitOfWork<BookingAreas>,
    protected readonly clock: Clock,
    protected readonly ids: IdGenerator,
    protected readonly calendar: HolidayCalendar,
  ) {}

  protected async typeOf(repos: Repositories<BookingAreas>, companyId: string, id: string): Promise<AppointmentType> {
    const type = await repos.schedulingCatalog.findType(companyId, id);
    if (!type || !type.active) throw new NotFoundError('Appointment type');
    return type;
  }

  /** The unit and professional of a start: the requested ones, or the least-booked free professional working then. */
  protected async place(
    repos: Repositories<BookingAreas>,
    companyId: string,
    type: AppointmentType,
    startsAt: Date,
    requested: { unitId?: string | null; professionalId?: string | null; allowOutsideHours?: boolean },
    now: Date,
    ignoreAppointmentId?: string,
  ): Promise<{ unit: Unit; professional: Professional }> {
    // The checks of time alone come first: a start too soon or too far ahead is refused as such, whatever the
    // working hours or holidays of that moment (which would otherwise answer first without a professional given).
    if (startsAt.getTime() < now.getTime() + type.minNoticeMinutes * MINUTE) throw unprocessable('min_notice');
    if (startsAt.getTime() > now.getTime() + type.maxAdvanceDays * DAY) throw unprocessable('max_advance');
    let professional: Professional | null = null;
    if (requested.professionalId) {
      professional = await repos.schedulingCatalog.findProfessional(companyId, requested.professionalId);
      if (!professional) throw new NotFoundError('Professional');
    }
    let unit: Unit | null = null;
    if (requested.unitId) {
      unit = await repos.schedulingCatalog.findUnit(companyId, requested.unitId);
      if (!unit) throw new NotFoundError('Unit');
    } else {
      const units = (await repos.schedulingCatalog.listUnits(companyId, { active: true })).filter((u) => type.unitIds.includes(u.id));
      const staff = professional ? [professional] : await repos.schedulingCatalog.listProfessionals(companyId, { appointmentTypeId: type.id, active: true });
      unit =
        units.find((u) => staff.some((p) => offers(p, type.id, u.id) && withinSchedule(p, u.id, localParts(startsAt, u.timezone).weekday, localParts(startsAt, u.timezone).minute, type.durationMinutes))) ??
        (units.length === 1 ? units[0]! : null);
      if (!unit) throw new ValidationError('unit_id is required: the type is offered at several units', { field: 'unit_id' });
    }
    const isHoliday = holidayCheck(this.calendar)(unit, zonedDay(startsAt, unit.timezone));
    if (!professional) {
      const staff = (await repos.schedulingCatalog.listProfessionals(companyId, { appointmentTypeId: type.id, unitId: unit.id, active: true })).filter((p) => offers(p, type.id, unit.id));
      if (staff.length === 0) throw unprocessable('not_enabled');
      const local = localParts(startsAt, unit.timezone);
      const working = requested.allowOutsideHours ? staff : staff.filter((p) => withinSchedule(p, unit.id, local.weekday, local.minute, type.durationMinutes));
      if (working.length === 0) throw unprocessable('outside_working_hours');
      const dayStart = wallClockInstant(local.date, 0, unit.timezone);
      const busy = await repos.appointments.busyBetween(working.map((p) => p.id), new Date(dayStart.getTime() - DAY), new Date(dayStart.getTime() + 2 * DAY));
      const sameDay = (list: readonly Interval[] | undefined) => (list ?? []).filter((b) => b.to > dayStart && b.from.getTime() < dayStart.getTime() + DAY).length;
      const free = working
        .filter((p) => isFree(busy.get(p.id), type, startsAt))
        .sort((a, b) => sameDay(busy.get(a.id)) - sameDay(busy.get(b.id)) || (a.id < b.id ? -1 : 1));
      // None free: the first one is tried, and the exclusion constraint answers SLOT_TAKEN with the alternatives.
      professional = free[0] ?? working[0]!;
    }
    const refusal = bookingRefusal({ type, unit, professional, startsAt, now, isHoliday, allowOutsideHours: requested.allowOutsideHours ?? false });
    if (refusal) throw unprocessable(refusal);
    return { unit, professional };
  }

  /** Plans and stores the reminders of an appointment start, with their wake-ups. */
  protected async addReminders(repos: Repositories<BookingAreas>, company: Company, appointment: Appointment, type: AppointmentType, offsets: readonly number[] | null, keyMode: KeyMode, now: Date): Promise<ScheduledMessage[]> {
    const settings = await repos.schedulingCatalog.reminderSettings(company.id);
    const chosen = offsets ?? type.reminderOffsetsMinutes ?? settings?.reminderOffsetsMinutes ?? [...DEFAULT_REMINDER_OFFSETS];
    if (chosen.length === 0) return [];
    const setorId = await chooseTimedSendBox(repos, company.id, appointment.setorId, appointment.clientId).catch(() => null);
    if (!setorId) return [];
    const rows: ScheduledMessage[] = planReminders({ startsAt: appointment.startsAt, offsets: chosen, now, safeHours: company.safeHours, timeZone: company.timezone }).map((plan) =>
      newTimedSend({
        id: this.ids.newId(),
        companyId: company.id,
        kind: 'reminder',
        appointmentId: appointment.id,
        offsetMinutes: plan.offsetMinutes,
        clientId: appointment.clientId,
        clientName: appointment.clientName,
        phone: appointment.clientPhone,
        setorId,
        keyMode,
        content: { text: null, mediaUrl: null, mediaType: null, mediaFilename: null },
        sendAt: new Date(appointment.startsAt.getTime() - plan.offsetMinutes * MINUTE),
        effectiveSendAt: plan.dueAt,
        respectSafeHours: false,
        waitingReason: plan.moved ? 'outside_safe_hours' : null,
        status: plan.status,
        skipReason: plan.skipReason,
        createdAt: now,
      }),
    );
    await repos.scheduledMessages.insert(rows);
    for (const row of rows) if (row.status === 'scheduled') await wakeTimedSendAt(repos.jobs, setorId, row.effectiveSendAt);
    return rows;
  }

  protected async conflict(code: 'SLOT_TAKEN' | 'APPOINTMENT_CONFLICT', company: Company, type: AppointmentType, unitId: string | null | undefined, startsAt: Date): Promise<DomainError> {
    const now = this.clock.now();
    const repos = await this.uow.transaction(async (r) => {
      const unit = unitId ? await r.schedulingCatalog.findUnit(company.id, unitId) : null;
      const fallback = unit ?? (await r.schedulingCatalog.listUnits(company.id, { active: true })).find((u) => type.unitIds.includes(u.id)) ?? null;
      return { unit: fallback, alternatives: fallback ? await alternatives(r, company, type, fallback, startsAt, now, holidayCheck(this.calendar)) : [] };
    });
    const endsAt = new Date(startsAt.getTime() + type.durationMinutes * MINUTE);
    return new DomainError(code, code === 'SLOT_TAKEN' ? 'The slot was taken: see details.alternatives' : 'The new time conflicts with another booking of the professional: see details.alternatives', {
      conflict: { starts_at: startsAt.toISOString(), ends_at: endsAt.toISOString() },
      alternatives: repos.alternatives,
    });
  }
}

/**
 * POST /v1/appointments. One transaction locks the company row (the monthly quota), resolves the
 * contact, inserts the appointment and reserves the professional's busy time — the exclusion
 * constraint refuses an overlap, whatever the concurrency, and that is answered 409 SLOT_TAKEN
 * with the next free slots — then the reminders and appointment.created.
 */
export class BookAppointment extends AppointmentWriter {
  async execute(command: BookAppointmentCommand, present: (detail: AppointmentDetail) => unknown, idempotency?: IdempotencyInput): Promise<{ body: unknown; replay: boolean }> {
    const offsets = command.reminderOffsetsMinutes ? validateReminderOffsets(command.reminderOffsetsMinutes) : null;
    const work = async (repos: Repositories<BookingAreas>) => ({ status: 201, body: present(await this.within(repos, command, offsets)) });
    try {
      return await new IdempotentRequests<BookingAreas>(this.uow, this.clock).runWithOptionalKey(command.companyId, idempotency, work);
    } catch (error) {
      if (!(error instanceof BusyTimeConflict)) throw error;
      const { company, type } = await this.uow.transaction(async (repos) => ({
        company: (await repos.companies.findById(command.companyId))!,
        type: await this.typeOf(repos, command.companyId, command.appointmentTypeId),
      }));
      throw await this.conflict('SLOT_TAKEN', company, type, command.unitId, command.startsAt);
    }
  }

  private async within(repos: Repositories<BookingAreas>, command: BookAppointmentCommand, offsets: number[] | null): Promise<AppointmentDetail> {
    const now = this.clock.now();
    const company = await repos.companies.findByIdForUpdate(command.companyId);
    if (!company) throw new NotFoundError('Company');
    const type = await this.typeOf(repos, company.id, command.appointmentTypeId);
    const { unit, professional } = await this.place(repos, company.id, type, command.startsAt, command, now);
    const window = quotaWindow('appointments_per_month', command.startsAt, company.timezone)!;
    if (command.keyMode === 'live') {
      assertWithinQuota({ company, quota: 'appointments_per_month', used: await repos.appointments.countLive(company.id, window.from, window.resetsAt), now: command.startsAt });
    }
    if (command.setorId && !(await repos.setores.findByIdInCompany(company.id, command.setorId))) throw new NotFoundError('Setor', { setor_id: command.setorId });
    if (command.ticketId && !(await repos.tickets.findById(company.id, command.ticketId))) throw new NotFoundError('Ticket', { ticket_id: command.ticketId });
    const client = await resolveSchedulingClient(repos, this.ids, company.id, command, now);
    const appointment: Appointment = {
      id: this.ids.newId(),
      companyId: company.id,
      appointmentTypeId: type.id,
      professionalId: professional.id,
      unitId: unit.id,
      clientId: client.id,
      clientName: client.name,
      clientPhone: client.phone,
      startsAt: command.startsAt,
      endsAt: new Date(command.startsAt.getTime() + type.durationMinutes * MINUTE),
      timezone: unit.timezone,
      status: 'scheduled',
      description: command.description ?? null,
      ticketId: command.ticketId ?? null,
      setorId: command.setorId ?? null,
      keyMode: command.keyMode,
      confirmedAt: null,
      cancelledAt: null,
      cancelReason: null,
      cancelledBy: null,
      history: [{ at: now, action: 'created', actor: 'api', details: {} }],
      createdAt: now,
      updatedAt: now,
    };
    await repos.appointments.insert(appointment);
    await repos.appointments.reserve({ id: this.ids.newId(), companyId: company.id, professionalId: professional.id, appointmentId: appointment.id, blockId: null, busy: busyOf(type, appointment.startsAt) });
    const reminders = await this.addReminders(repos, company, appointment, type, offsets, command.keyMode, now);
    await repos.events.record([event(this.ids, appointment, 'appointment.created', now, appointmentData(appointment))]);
    return { appointment, reminders, names: { appointmentType: type.name, professional: professional.name, unit: unit.name } };
  }
}

/** PATCH /v1/appointments/:id: exactly one of a new start, attendance or confirmation; `description` alongside. */
export interface ChangeAppointmentCommand {
  companyId: string;
  id: string;
  startsAt?: Date;
  professionalId?: string | null;
  unitId?: string | null;
  attendance?: Attendance;
  status?: 'confirmed';
  description?: string | null;
  actor?: string;
  /** A reschedule tells the client (an appointment notice) when true. */
  notify?: boolean;
}

/**
 * PATCH /v1/appointments/:id. A reschedule moves the reservation in the same transaction (an
 * overlap is 409 APPOINTMENT_CONFLICT with alternatives), cancels the pending reminders and plans
 * new ones at the same offsets, and records appointment.rescheduled.
 */
export class ChangeAppointment extends AppointmentWriter {
  async execute(command: ChangeAppointmentCommand): Promise<AppointmentDetail> {
    const moves = [command.startsAt !== undefined, command.attendance !== undefined, command.status !== undefined].filter(Boolean).length;
    if (moves > 1) throw new ValidationError('Send one of starts_at, attendance or status', { fields: ['starts_at', 'attendance', 'status'] });
    if (moves === 0 && command.description === undefined) throw new ValidationError('Send starts_at, attendance, status or description', { fields: ['starts_at', 'attendance', 'status', 'description'] });
    try {
      return await this.uow.transaction((repos) => this.within(repos, command));
    } catch (error) {
      if (!(error instanceof BusyTimeConflict)) throw error;
      const { company, type, current } = await this.uow.transaction(async (repos) => {
        const current = (await repos.appointments.findById(command.companyId, command.id))!;
        return { company: (await repos.companies.findById(command.companyId))!, type: await this.typeOf(repos, command.companyId, current.appointmentTypeId), current };
      });
      throw await this.conflict('APPOINTMENT_CONFLICT', company, type, command.unitId ?? current.unitId, command.startsAt!);
    }
  }

  private async within(repos: Repositories<BookingAreas>, command: ChangeAppointmentCommand): Promise<AppointmentDetail> {
    const now = this.clock.now();
    const actor = command.actor ?? 'api';
    const current = await repos.appointments.findByIdForUpdate(command.companyId, command.id);
    if (!current) throw new NotFoundError('Appointment');
    let next = current;
    // A reschedule has just read the type, professional and unit: their names come from there, not three more reads.
    let names: AppointmentNames | null = null;
    const events: DomainEvent[] = [];
    if (command.startsAt !== undefined) {
      const company = (await repos.companies.findById(command.companyId))!;
      const type = await repos.schedulingCatalog.findType(command.companyId, current.appointmentTypeId);
      if (!type) throw new NotFoundError('Appointment type');
      const { unit, professional } = await this.place(
        repos,
        command.companyId,
        type,
        command.startsAt,
        { unitId: command.unitId ?? current.unitId, professionalId: command.professionalId ?? current.professionalId },
        now,
        current.id,
      );
      next = transition(appointmentDecider, current, {
        type: 'reschedule',
        at: now,
        actor,
        startsAt: command.startsAt,
        endsAt: new Date(command.startsAt.getTime() + type.durationMinutes * MINUTE),
        professionalId: professional.id,
        unitId: unit.id,
        timezone: unit.timezone,
      }).state;
      names = { appointmentType: type.name, professional: professional.name, unit: unit.name };
      await repos.appointments.moveReservation(current.id, professional.id, busyOf(type, next.startsAt));
      const previous = await repos.scheduledMessages.remindersOf(current.id);
      await repos.scheduledMessages.cancelReminders(current.id, now);
      const offsets = [...new Set(previous.map((r) => r.offsetMinutes).filter((o): o is number => o !== null))];
      if (command.description !== undefined) next = { ...next, description: command.description };
      await repos.appointments.update(next);
      await this.addReminders(repos, company, next, type, offsets.length > 0 ? offsets : null, current.keyMode, now);
      if (command.notify) await queueAppointmentNotice(repos, this.ids, next, 'rescheduled', now);
      events.push(
        event(this.ids, next, 'appointment.rescheduled', now, {
          ...appointmentData(next),
          previousStartsAt: current.startsAt.toISOString(),
          previousEndsAt: current.endsAt.toISOString(),
          previousProfessionalId: current.professionalId,
        }),
      );
    } else {
      if (command.status === 'confirmed') next = transition(appointmentDecider, next, { type: 'confirm', at: now, actor }).state;
      if (command.attendance) next = transition(appointmentDecider, next, { type: 'markAttendance', at: now, actor, attendance: command.attendance }).state;
      if (command.description !== undefined) next = { ...next, description: command.description, updatedAt: now };
      if (next !== current) await repos.appointments.update(next);
    }
    await repos.events.record(events);
    return { appointment: next, reminders: await repos.scheduledMessages.remindersOf(next.id), names: names ?? (await appointmentNames(repos, next)) };
  }
}

/**
 * DELETE /v1/appointments/:id: cancelled (final), its busy time released and its pending
 * reminders cancelled in the same transaction (a reminder being sent at that moment is already
 * `sending`: it is not cancelled, and it checks the appointment again before it goes out).
 */
export class CancelAppointment {
  constructor(
    private readonly uow: UnitOfWork<SchedulingRepositories & ChannelRepositories & ContactRepositories & SetorRepositories>,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async execute(companyId: string, id: string, input: { reason?: string | null; by?: 'api' | 'admin'; notify?: boolean }): Promise<{ appointment: Appointment; remindersCancelled: number }> {
    // Every effect is in the transaction, so a deadlock's victim (against a lane claiming the reminder) runs again.
    return transactionWithRetry(this.uow, async (repos) => {
      const current = await repos.appointments.findByIdForUpdate(companyId, id);
      if (!current) throw new NotFoundError('Appointment');
      // After the lock: a reminder being sent holds the row, and its send comes before this cancellation.
      const now = this.clock.now();
      const { state, events } = transition(appointmentDecider, current, { type: 'cancel', at: now, actor: input.by ?? 'api', reason: input.reason ?? null });
      if (events.length === 0) return { appointment: current, remindersCancelled: 0 };
      await repos.appointments.update(state);
      await repos.appointments.releaseReservation(id);
      const remindersCancelled = await repos.scheduledMessages.cancelReminders(id, now);
      if (input.notify) await queueAppointmentNotice(repos, this.ids, state, 'cancelled', now);
      await repos.events.record([
        event(this.ids, state, 'appointment.cancelled', now, {
          appointmentId: state.id,
          startsAt: state.startsAt.toISOString(),
          clientId: state.clientId,
          reason: state.cancelReason,
          cancelledBy: state.cancelledBy,
        }),
      ]);
      return { appointment: state, remindersCancelled };
    });
  }
}

/** GET /v1/appointments (cursor list) and …/:id. */
export class ReadAppointments {
  constructor(
    private readonly repos: Repositories<SchedulingRepositories>,
    private readonly clock: Clock,
  ) {}

  async list(
    company: Company,
    query: { from?: string; to?: string; clientId?: string; status?: AppointmentStatus; professionalId?: string; unitId?: string; cursor?: string; limit: number },
  ): Promise<{ items: Appointment[]; names: (appointment: Appointment) => AppointmentNames; nextCursor: string | null; limit: number }> {
    const filter: AppointmentFilter = {
      ...(query.clientId ? { clientId: query.clientId } : {}),
      ...(query.professionalId ? { professionalId: query.professionalId } : {}),
      ...(query.unitId ? { unitId: query.unitId } : {}),
      statuses: query.status ? [query.status] : ['scheduled', 'confirmed', 'attended', 'no_show'],
    };
    if (query.from || query.to || !query.clientId) {
      const now = this.clock.now();
      const from = query.from ? boundary(query.from, company.timezone, 'from') : wallClockInstant(zonedDay(now, company.timezone), 0, company.timezone);
      const to = query.to ? boundary(query.to, company.timezone, 'to') : new Date(from.getTime() + 31 * DAY);
      if (to.getTime() < from.getTime()) throw new ValidationError('to must not be before from', { field: 'to' });
      if (to.getTime() - from.getTime() > 92 * DAY) throw new ValidationError('from-to spans at most 92 days', { field: 'to' });
      filter.from = from;
      filter.to = to;
    }
    let after: { startsAt: Date; id: string } | null = null;
    if (query.cursor) {
      const [ms, id] = Buffer.from(query.cursor, 'base64url').toString('utf8').split('|');
      if (!ms || !id || !Number.isFinite(Number(ms))) throw new ValidationError('cursor is not valid', { field: 'cursor' });
      after = { startsAt: new Date(Number(ms)), id };
    }
    const rows = await this.repos.appointments.list(company.id, filter, after, query.limit + 1);
    const items = rows.slice(0, query.limit);
    const last = items[items.length - 1];
    const nextCursor = rows.length > query.limit && last ? Buffer.from(`${last.startsAt.getTime()}|${last.id}`, 'utf8').toString('base64url') : null;
    return { items, names: items.length > 0 ? await catalogueNames(this.repos, company.id) : noNames, nextCursor, limit: query.limit };
  }

  async get(companyId: string, id: string): Promise<AppointmentDetail> {
    const appointment = await this.repos.appointments.findById(companyId, id);
    if (!appointment) throw new NotFoundError('Appointment');
    return { appointment, reminders: await this.repos.scheduledMessages.remindersOf(id), names: await appointmentNames(this.repos, appointment) };
  }
}

/** A date (`YYYY-MM-DD`, in the company's zone: `to` inclusive) or an instant with an offset. */
function boundary(value: string, timeZone: string, which: 'from' | 'to'): Date {
  const date = parseDate(value);
  if (date !== null) {
    const start = wallClockInstant(value, 0, timeZone);
    return which === 'from' ? start : wallClockInstant(value, 1440, timeZone);
  }
  if (!/(Z|[+-]\d{2}:\d{2})$/i.test(value) || Number.isNaN(Date.parse(value))) throw new ValidationError(`${which} must be a date or an instant with an offset`, { field: which });
  return new Date(Date.parse(value));
}

/**
 * A contact's upcoming live appointments, for the contacts area's 360 detail (issue 13): bind it
 * and call `execute(companyId, contactId)`.
 */
export class UpcomingAppointments {
  constructor(
    private readonly repos: Repositories<SchedulingRepositories>,
    private readonly clock: Clock,
  ) {}
  async execute(companyId: string, contactId: string, limit = 10): Promise<{ items: Appointment[]; names: (appointment: Appointment) => AppointmentNames }> {
    const items = await this.repos.appointments.upcomingForContact(companyId, contactId, this.clock.now(), limit);
    return { items, names: items.length > 0 ? await catalogueNames(this.repos, companyId) : noNames };
  }
}

