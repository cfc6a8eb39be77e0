import type { Page, PageRequest } from '../shared/pagination.js';
import type { Appointment, AppointmentStatus } from './appointment.js';
import type { Interval } from './availability.js';
import type { AppointmentType, Professional, ReminderSettings, Unit } from './catalog.js';
import type { ScheduledMessage, TimedSendKind, TimedSendStatus } from './scheduled-message.js';

/** How a catalogue record is read: `forUpdate` locks its row until the transaction ends (an edit's read-change-write). */
export interface CatalogRead {
  forUpdate?: boolean;
}

/** Units, professionals (with schedule and services), appointment types and reminder settings. */
export interface SchedulingCatalogRepository {
  insertUnit(unit: Unit): Promise<void>;
  updateUnit(unit: Unit): Promise<void>;
  findUnit(companyId: string, id: string, read?: CatalogRead): Promise<Unit | null>;
  listUnits(companyId: string, filter: { active?: boolean }): Promise<Unit[]>;
  /** Inserts the professional with its schedule and services. */
  insertProfessional(professional: Professional): Promise<void>;
  /** Writes name, phone, active, and replaces the schedule and services. */
  updateProfessional(professional: Professional): Promise<void>;
  findProfessional(companyId: string, id: string, read?: CatalogRead): Promise<Professional | null>;
  listProfessionals(companyId: string, filter: { unitId?: string; appointmentTypeId?: string; active?: boolean }): Promise<Professional[]>;
  insertType(type: AppointmentType): Promise<void>;
  updateType(type: AppointmentType): Promise<void>;
  findType(companyId: string, id: string, read?: CatalogRead): Promise<AppointmentType | null>;
  listTypes(companyId: string, filter: { active?: boolean }): Promise<AppointmentType[]>;
  reminderSettings(companyId: string): Promise<ReminderSettings | null>;
  saveReminderSettings(settings: ReminderSettings): Promise<void>;
  /** The company a unit, professional or appointment type belongs to (null when there is none with that id). */
  companyOf(kind: 'unit' | 'professional' | 'type', id: string): Promise<string | null>;
}
export const SchedulingCatalogRepository = Symbol.for('carteiro.SchedulingCatalogRepository');

/** Thrown by a reservation that overlaps another of the same professional (SQLSTATE 23P01). */
export class BusyTimeConflict extends Error {
  constructor() {
    super('The professional is busy at that time');
    this.name = 'BusyTimeConflict';
  }
}

/** A block of a professional's time (POST /admin/v1/professionals/:id/blocks). */
export interface ProfessionalBlock {
  id: string;
  companyId: string;
  professionalId: string;
  startsAt: Date;
  endsAt: Date;
  reason: string | null;
  createdAt: Date;
}

/** Filters of GET /v1/appointments. */
export interface AppointmentFilter {
  from?: Date;
  to?: Date;
  clientId?: string;
  statuses?: readonly AppointmentStatus[];
  professionalId?: string;
  unitId?: string;
}

/**
 * Appointments and the busy-time table. Reservations go through one table with an exclusion
 * constraint (`professional_id WITH =, busy WITH &&`): an overlapping reservation throws
 * {@link BusyTimeConflict} and aborts the transaction, so double booking cannot happen whatever
 * the concurrency.
 */
export interface AppointmentRepository {
  insert(appointment: Appointment): Promise<void>;
  update(appointment: Appointment): Promise<void>;
  findById(companyId: string, id: string): Promise<Appointment | null>;
  /** Locks the row until the transaction ends. */
  findByIdForUpdate(companyId: string, id: string): Promise<Appointment | null>;
  /** Share-locks the row (a reminder being sent holds it: a cancel waits for the send to be recorded). */
  findByIdForShare(companyId: string, id: string): Promise<Appointment | null>;
  /** By `startsAt`, then id, after the cursor (`startsAt|id` of the last item). */
  list(companyId: string, filter: AppointmentFilter, after: { startsAt: Date; id: string } | null, limit: number): Promise<Appointment[]>;
  /** Reserves `[from, to)` of a professional for an appointment or a block; throws {@link BusyTimeConflict}. */
  reserve(reservation: { id: string; companyId: string; professionalId: string; appointmentId: string | null; blockId: string | null; busy: Interval }): Promise<void>;
  /** Moves an appointment's reservation; throws {@link BusyTimeConflict}. */
  moveReservation(appointmentId: string, professionalId: string, busy: Interval): Promise<void>;
  releaseReservation(appointmentId: string): Promise<void>;
  /** Busy intervals of the professionals overlapping `[from, to)`, each list sorted by start. */
  busyBetween(professionalIds: readonly string[], from: Date, to: Date): Promise<Map<string, Interval[]>>;
  /** Non-cancelled appointments of the company starting in `[from, to)` (the monthly quota). */
  countLive(companyId: string, from: Date, to: Date): Promise<number>;
  insertBlock(block: ProfessionalBlock): Promise<void>;
  /** A contact's next live appointments from `now` (the contact detail). */
  upcomingForContact(companyId: string, contactId: string, now: Date, limit: number): Promise<Appointment[]>;
}
export const AppointmentRepository = Symbol.for('carteiro.AppointmentRepository');

/** Filters of GET /v1/scheduled-messages. */
export interface ScheduledMessageFilter {
  statuses?: readonly TimedSendStatus[];
  clientId?: string;
  setorId?: string;
  from?: Date;
  to?: Date;
}

/** What a compare-and-set write expects to find. */
export interface TimedSendExpectation {
  status: TimedSendStatus;
  claimedBy?: string | null;
}

/**
 * Timed sends (scheduled messages and reminders). Every write that moves a row out of a state
 * is a compare-and-set on that state: a cancel is `UPDATE … WHERE status = 'scheduled'`, a claim
 * takes due rows `FOR UPDATE SKIP LOCKED`, a settlement expects `sending` and the claiming lane.
 */
export interface ScheduledMessageRepository {
  insert(rows: readonly ScheduledMessage[]): Promise<void>;
  findById(companyId: string, id: string, kind?: TimedSendKind): Promise<ScheduledMessage | null>;
  list(companyId: string, kind: TimedSendKind, filter: ScheduledMessageFilter, page: PageRequest): Promise<Page<ScheduledMessage>>;
  /** Scheduled (or being sent) messages of the company: the pending quota. */
  countPending(companyId: string): Promise<number>;
  /** The reminders of an appointment (never its notices), in planning order. */
  remindersOf(appointmentId: string): Promise<ScheduledMessage[]>;
  /** Writes `row` when the stored row still matches `expected`; answers whether it did. */
  compareAndSet(row: ScheduledMessage, expected: TimedSendExpectation): Promise<boolean>;
  /** `UPDATE … SET status = 'cancelled' WHERE status = 'scheduled'`: the cancelled row, or null when it was not scheduled. */
  cancelIfScheduled(companyId: string, id: string, at: Date): Promise<ScheduledMessage | null>;
  /** Cancels every scheduled reminder of an appointment (its notices still go); answers how many. */
  cancelReminders(appointmentId: string, at: Date): Promise<number>;
  /** Whether the box has a due scheduled row or a claimed one. */
  hasWork(setorId: string, now: Date): Promise<boolean>;
  /** A row of the box claimed by an earlier lane run, or null. */
  inFlight(setorId: string): Promise<ScheduledMessage | null>;
  /** Claims the box's earliest due row for `owner` (`FOR UPDATE SKIP LOCKED`, → sending, attempts + 1), or null. */
  claimDue(setorId: string, owner: string, now: Date): Promise<ScheduledMessage | null>;
  /** Boxes with due rows, or rows claimed before `claimedBefore` (a dead lane): the minute sweep wakes them. */
  setoresWithWork(now: Date, claimedBefore: Date): Promise<string[]>;
  /** The latest sent reminder of a contact's phone since `since`, for confirmation by reply. */
  latestSentReminder(companyId: string, phone: string, since: Date): Promise<ScheduledMessage | null>;
}
export const ScheduledMessageRepository = Symbol.for('carteiro.ScheduledMessageRepository');

/** The scheduling area's repositories, as a use case names them. */
export interface SchedulingRepositories {
  schedulingCatalog: SchedulingCatalogRepository;
  appointments: AppointmentRepository;
  scheduledMessages: ScheduledMessageRepository;
}
