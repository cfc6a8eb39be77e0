import { ValidationError } from '../shared/errors.js';

/** Postal address of a unit (business.md §1). */
export interface UnitAddress {
  street: string | null;
  number: string | null;
  district: string | null;
  city: string | null;
  /** Two-letter state code: its state holidays apply to the unit. */
  uf: string | null;
  postalCode: string | null;
  ibgeCode: string | null;
}

/** A place where appointments happen; its hours are wall-clock times of its own IANA zone. */
export interface Unit {
  id: string;
  companyId: string;
  name: string;
  address: UnitAddress;
  timezone: string;
  openOnHolidays: boolean;
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** One working window of a professional: weekday 0-6 (0 Sunday), minutes of the unit's local day `[start, end)`. */
export interface ScheduleEntry {
  unitId: string;
  weekday: number;
  startMinute: number;
  endMinute: number;
}

/** What a professional offers, and where. */
export interface ProfessionalService {
  appointmentTypeId: string;
  unitId: string;
}

export interface Professional {
  id: string;
  companyId: string;
  name: string;
  phone: string | null;
  active: boolean;
  schedule: ScheduleEntry[];
  services: ProfessionalService[];
  createdAt: Date;
  updatedAt: Date;
}

/** A kind of appointment: how long it lasts, its buffers, slot grid, notice, advance and reminders. */
export interface AppointmentType {
  id: string;
  companyId: string;
  name: string;
  durationMinutes: number;
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  slotIntervalMinutes: number;
  minNoticeMinutes: number;
  maxAdvanceDays: number;
  /** BRL, at most 2 decimals; null when not priced. */
  price: number | null;
  unitIds: string[];
  /** Null: the company's offsets. */
  reminderOffsetsMinutes: number[] | null;
  reminderText: string | null;
  /** Approved template (official boxes): name, language and body parameters with placeholders. */
  reminderTemplate: { name: string; language: string; parameters: string[] } | null;
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** A company's reminder settings (`PUT /admin/v1/companies/:id/reminder-settings`). */
export interface ReminderSettings {
  companyId: string;
  /** Null: the default `[1440, 120]`. */
  reminderOffsetsMinutes: number[] | null;
  reminderText: string | null;
}

export const DEFAULT_REMINDER_OFFSETS = [1440, 120] as const;

/** What a client is sent when a reschedule or cancellation asks for `notify` (the reminder variables, at send time). */
export const APPOINTMENT_NOTICE_TEXTS = {
  rescheduled: '{{saudacao}}, {{primeiro_nome}}! Seu horário de {{servico}} com {{profissional}} foi remarcado para {{data_agendamento}} às {{hora_agendamento}}, {{unidade}} ({{endereco}}).',
  cancelled: '{{saudacao}}, {{primeiro_nome}}! Seu horário de {{servico}} com {{profissional}} em {{data_agendamento}} às {{hora_agendamento}} foi cancelado.',
} as const;

export const DEFAULT_REMINDER_TEXT =
  '{{saudacao}}, {{primeiro_nome}}! Lembrete: {{servico}} com {{profissional}} em {{data_agendamento}} às {{hora_agendamento}}, {{unidade}} ({{endereco}}). Responda 1 (sim) para confirmar.';

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** `HH:MM` → minutes of the day; `24:00` is accepted as an end. */
export function parseClock(value: string, field: string, allowEndOfDay = false): number {
  if (allowEndOfDay && value === '24:00') return 1440;
  const match = HHMM.exec(value);
  if (!match) throw new ValidationError(`${field} must be HH:MM`, { field });
  return Number(match[1]) * 60 + Number(match[2]);
}

export function formatClock(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** Whether `timeZone` is an IANA zone the runtime knows. */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return timeZone.includes('/') || timeZone === 'UTC';
  } catch {
    return false;
  }
}

/** Checks a schedule: windows of positive length that do not overlap within a unit and weekday. */
export function validateSchedule(entries: readonly ScheduleEntry[]): void {
  for (const [i, e] of entries.entries()) {
    if (e.endMinute <= e.startMinute) throw new ValidationError(`schedule[${i}].end must be after start`, { field: `schedule[${i}].end` });
  }
  for (let i = 0; i < entries.length; i += 1) {
    for (let j = i + 1; j < entries.length; j += 1) {
      const a = entries[i]!;
      const b = entries[j]!;
      if (a.weekday === b.weekday && a.unitId === b.unitId && a.startMinute < b.endMinute && b.startMinute < a.endMinute) {
        throw new ValidationError(`schedule[${j}] overlaps schedule[${i}]`, { field: `schedule[${j}]` });
      }
    }
  }
}

/**
 * Checks reminder offsets: at most 3 distinct values up to 10,080 minutes, at least `min` (15 in an
 * appointment request; the operator's type and company settings may go down to 1 minute).
 */
export function validateReminderOffsets(offsets: readonly number[], field = 'reminder_offsets_minutes', min = 15): number[] {
  if (offsets.length > 3) throw new ValidationError(`${field} has at most 3 items`, { field });
  for (const o of offsets) {
    if (!Number.isInteger(o) || o < min || o > 10_080) throw new ValidationError(`${field} items are ${min}-10080 minutes`, { field });
  }
  return [...new Set(offsets)].sort((a, b) => b - a);
}
