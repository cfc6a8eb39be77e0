import type { Timestamp, Json } from '../shared/column-types.js';

export interface SchedulingUnitsTable {
  id: string;
  company_id: string;
  name: string;
  address: Json;
  timezone: string;
  open_on_holidays: boolean;
  active: boolean;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SchedulingProfessionalsTable {
  id: string;
  company_id: string;
  name: string;
  phone: string | null;
  active: boolean;
  /** `[{ unitId, weekday, startMinute, endMinute }]`, replaced whole. */
  schedule: Json;
  /** `[{ appointmentTypeId, unitId }]`, replaced whole. */
  services: Json;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AppointmentTypesTable {
  id: string;
  company_id: string;
  name: string;
  duration_minutes: number;
  buffer_before_minutes: number;
  buffer_after_minutes: number;
  slot_interval_minutes: number;
  min_notice_minutes: number;
  max_advance_days: number;
  price: string | null;
  unit_ids: string[];
  reminder_offsets_minutes: number[] | null;
  reminder_text: string | null;
  reminder_template: Json | null;
  active: boolean;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SchedulingReminderSettingsTable {
  company_id: string;
  reminder_offsets_minutes: number[] | null;
  reminder_text: string | null;
}

export interface AppointmentsTable {
  id: string;
  company_id: string;
  appointment_type_id: string;
  professional_id: string;
  unit_id: string;
  client_id: string;
  client_name: string | null;
  client_phone: string;
  starts_at: Timestamp;
  ends_at: Timestamp;
  timezone: string;
  status: string;
  description: string | null;
  ticket_id: string | null;
  setor_id: string | null;
  key_mode: string;
  confirmed_at: Timestamp | null;
  cancelled_at: Timestamp | null;
  cancel_reason: string | null;
  cancelled_by: string | null;
  history: Json;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ProfessionalBlocksTable {
  id: string;
  company_id: string;
  professional_id: string;
  starts_at: Timestamp;
  ends_at: Timestamp;
  reason: string | null;
  created_at: Timestamp;
}

export interface SchedulingBusyTable {
  id: string;
  company_id: string;
  professional_id: string;
  appointment_id: string | null;
  block_id: string | null;
  /** tstzrange `[from, to)`. */
  busy: string;
}

export interface ScheduledMessagesTable {
  id: string;
  company_id: string;
  kind: string;
  appointment_id: string | null;
  offset_minutes: number | null;
  client_id: string;
  client_name: string | null;
  phone: string;
  setor_id: string;
  key_mode: string;
  content: Json;
  send_at: Timestamp;
  effective_send_at: Timestamp;
  respect_safe_hours: boolean;
  waiting_reason: string | null;
  status: string;
  attempts: number;
  claimed_by: string | null;
  claimed_at: Timestamp | null;
  sent_at: Timestamp | null;
  message_id: string | null;
  error_code: string | null;
  error: string | null;
  skip_reason: string | null;
  cancelled_at: Timestamp | null;
  charge: Json | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Tables of the scheduling area (migration `0010-scheduling.ts`). */
export interface SchedulingTables {
  scheduling_units: SchedulingUnitsTable;
  scheduling_professionals: SchedulingProfessionalsTable;
  appointment_types: AppointmentTypesTable;
  scheduling_reminder_settings: SchedulingReminderSettingsTable;
  appointments: AppointmentsTable;
  professional_blocks: ProfessionalBlocksTable;
  scheduling_busy: SchedulingBusyTable;
  scheduled_messages: ScheduledMessagesTable;
}

declare module '../shared/database.js' {
  interface Database extends SchedulingTables {}
}
