import type { Decider } from '../shared/decider.js';
import { InvalidTransitionError } from '../shared/errors.js';

export type AppointmentStatus = 'scheduled' | 'confirmed' | 'cancelled' | 'attended' | 'no_show';
export type Attendance = 'attended' | 'no_show';

/** One line of an appointment's history (GET /v1/appointments/:id `history[]`). */
export interface AppointmentHistoryEntry {
  at: Date;
  action: 'created' | 'confirmed' | 'rescheduled' | 'cancelled' | 'attendance';
  actor: string;
  details: Record<string, unknown>;
}

export interface Appointment {
  id: string;
  companyId: string;
  appointmentTypeId: string;
  professionalId: string;
  unitId: string;
  clientId: string;
  clientName: string | null;
  clientPhone: string;
  startsAt: Date;
  endsAt: Date;
  /** The unit's zone when booked (the `local` fields are in it). */
  timezone: string;
  status: AppointmentStatus;
  description: string | null;
  ticketId: string | null;
  setorId: string | null;
  /** The mode of the key that booked it: only live bookings count against the quota. */
  keyMode: 'live' | 'test';
  confirmedAt: Date | null;
  cancelledAt: Date | null;
  cancelReason: string | null;
  cancelledBy: 'api' | 'admin' | null;
  history: AppointmentHistoryEntry[];
  createdAt: Date;
  updatedAt: Date;
}

/** Live appointments hold their professional's time (the busy table's reservation). */
export function isLive(status: AppointmentStatus): boolean {
  return status === 'scheduled' || status === 'confirmed';
}

export type AppointmentCommand =
  | { type: 'confirm'; at: Date; actor: string }
  | { type: 'reschedule'; at: Date; actor: string; startsAt: Date; endsAt: Date; professionalId: string; unitId: string; timezone: string }
  | { type: 'cancel'; at: Date; actor: 'api' | 'admin'; reason: string | null }
  | { type: 'markAttendance'; at: Date; actor: string; attendance: Attendance };

export type AppointmentEvent =
  | { type: 'confirmed'; at: Date; actor: string }
  | { type: 'rescheduled'; at: Date; actor: string; startsAt: Date; endsAt: Date; professionalId: string; unitId: string; timezone: string }
  | { type: 'cancelled'; at: Date; actor: 'api' | 'admin'; reason: string | null }
  | { type: 'attendanceMarked'; at: Date; actor: string; attendance: Attendance };

/**
 * scheduled → confirmed; scheduled/confirmed → scheduled (reschedule) or cancelled (final);
 * from `startsAt` on, attendance sets attended / no_show, and may be corrected.
 */
export const appointmentDecider: Decider<Appointment, AppointmentCommand, AppointmentEvent> = {
  decide(command, state) {
    switch (command.type) {
      case 'confirm':
        if (state.status === 'confirmed') return [];
        if (state.status !== 'scheduled') throw new InvalidTransitionError('appointment', state.status, 'confirm', ['scheduled']);
        return [{ type: 'confirmed', at: command.at, actor: command.actor }];
      case 'reschedule':
        if (!isLive(state.status)) throw new InvalidTransitionError('appointment', state.status, 'reschedule', ['scheduled', 'confirmed']);
        return [{ ...command, type: 'rescheduled' }];
      case 'cancel':
        if (state.status === 'cancelled') return [];
        if (!isLive(state.status)) throw new InvalidTransitionError('appointment', state.status, 'cancel', ['scheduled', 'confirmed']);
        return [{ type: 'cancelled', at: command.at, actor: command.actor, reason: command.reason }];
      case 'markAttendance':
        if (state.status === 'cancelled') throw new InvalidTransitionError('appointment', state.status, 'mark attendance of', ['scheduled', 'confirmed', 'attended', 'no_show']);
        if (command.at.getTime() < state.startsAt.getTime()) {
          throw new InvalidTransitionError('appointment', `${state.status} (not started)`, 'mark attendance of', ['scheduled', 'confirmed', 'attended', 'no_show']);
        }
        if (state.status === command.attendance) return [];
        return [{ type: 'attendanceMarked', at: command.at, actor: command.actor, attendance: command.attendance }];
    }
  },
  evolve(state, event) {
    const base = { ...state, updatedAt: event.at };
    switch (event.type) {
      case 'confirmed':
        return { ...base, status: 'confirmed', confirmedAt: event.at, history: [...state.history, { at: event.at, action: 'confirmed', actor: event.actor, details: {} }] };
      case 'rescheduled':
        return {
          ...base,
          status: 'scheduled',
          confirmedAt: null,
          startsAt: event.startsAt,
          endsAt: event.endsAt,
          professionalId: event.professionalId,
          unitId: event.unitId,
          timezone: event.timezone,
          history: [
            ...state.history,
            {
              at: event.at,
              action: 'rescheduled',
              actor: event.actor,
              details: { from: state.startsAt.toISOString(), to: event.startsAt.toISOString(), professional_id: event.professionalId, unit_id: event.unitId },
            },
          ],
        };
      case 'cancelled':
        return {
          ...base,
          status: 'cancelled',
          cancelledAt: event.at,
          cancelReason: event.reason,
          cancelledBy: event.actor,
          history: [...state.history, { at: event.at, action: 'cancelled', actor: event.actor, details: { reason: event.reason } }],
        };
      case 'attendanceMarked':
        return { ...base, status: event.attendance, history: [...state.history, { at: event.at, action: 'attendance', actor: event.actor, details: { attendance: event.attendance } }] };
    }
  },
};
