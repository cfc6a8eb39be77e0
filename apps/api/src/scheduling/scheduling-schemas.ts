import { component, s } from '../http/schema.js';

export const Client = s.object({ id: s.uuid(), name: s.nullableString(), phone: s.string() });
export const Local = s.object({ date: s.string({ format: 'date' }), time: s.string({ pattern: '^\\d{2}:\\d{2}$' }), timezone: s.string() });

export const ScheduledMessageSchema = component(
  'ScheduledMessage',
  s.object({
    id: s.uuid(),
    status: s.enum(['scheduled', 'sending', 'sent', 'failed', 'cancelled', 'skipped']),
    client: Client,
    setor_id: s.uuid(),
    text: s.nullableString(),
    media: { type: ['object', 'null'], properties: { url: s.string(), type: s.nullableString(), filename: s.nullableString() } },
    send_at: s.dateTime(),
    effective_send_at: s.dateTime(),
    respect_safe_hours: s.boolean(),
    waiting_reason: s.nullableString({ description: '`outside_safe_hours` or `retry` when effective_send_at is later than send_at.' }),
    attempts: s.integer({ minimum: 0 }),
    sent_at: s.nullableDateTime(),
    message_id: s.nullableString(),
    error_code: s.nullableString(),
    cancelled_at: s.nullableDateTime(),
    created_at: s.dateTime(),
  }),
);

export const ReminderSchema = s.object({
  id: s.uuid(),
  offset_minutes: s.integer(),
  due_at: s.dateTime(),
  status: s.enum(['scheduled', 'sent', 'failed', 'skipped', 'cancelled']),
  sent_at: s.nullableDateTime(),
  message_id: s.nullableString(),
  error_code: s.nullableString(),
  skip_reason: s.nullableString(),
});

/** A catalogue record named on an appointment: its id and name (null once the record is gone). */
const CatalogRef = s.object({ id: s.uuid(), name: s.nullableString() });

const appointmentProperties = {
  id: s.uuid(),
  status: s.enum(['scheduled', 'confirmed', 'cancelled', 'attended', 'no_show']),
  starts_at: s.dateTime(),
  ends_at: s.dateTime(),
  local: Local,
  appointment_type_id: s.uuid(),
  professional_id: s.uuid(),
  unit_id: s.uuid(),
  appointment_type: CatalogRef,
  professional: CatalogRef,
  unit: CatalogRef,
  client: Client,
  description: s.nullableString(),
  ticket_id: s.nullableUuid(),
  setor_id: s.nullableUuid(),
  confirmed_at: s.nullableDateTime(),
  cancelled_at: s.nullableDateTime(),
  cancel_reason: s.nullableString(),
  created_at: s.dateTime(),
  updated_at: s.dateTime(),
};

export const AppointmentSchema = component('Appointment', s.object(appointmentProperties));

export const AppointmentDetailSchema = component(
  'AppointmentDetail',
  s.object({
    ...appointmentProperties,
    reminders: s.array(ReminderSchema),
    history: s.array(s.object({ at: s.dateTime(), action: s.string(), actor: s.string(), details: { type: 'object', additionalProperties: true } })),
  }),
);

export const UnitSchema = component(
  'Unit',
  s.object({
    id: s.uuid(),
    name: s.string(),
    address: s.object({
      street: s.nullableString(),
      number: s.nullableString(),
      district: s.nullableString(),
      city: s.nullableString(),
      uf: s.nullableString(),
      postal_code: s.nullableString(),
      ibge_code: s.nullableString(),
    }),
    timezone: s.string(),
    open_on_holidays: s.boolean(),
    active: s.boolean(),
  }),
);

export const ProfessionalSchema = component(
  'Professional',
  s.object({
    id: s.uuid(),
    name: s.string(),
    phone: s.nullableString(),
    active: s.boolean(),
    schedule: s.array(s.object({ unit_id: s.uuid(), weekday: s.integer({ minimum: 0, maximum: 6 }), start: s.string(), end: s.string() })),
    services: s.array(s.object({ appointment_type_id: s.uuid(), unit_id: s.uuid() })),
  }),
);

export const AppointmentTypeSchema = component(
  'AppointmentType',
  s.object({
    id: s.uuid(),
    name: s.string(),
    duration_minutes: s.integer(),
    buffer_before_minutes: s.integer(),
    buffer_after_minutes: s.integer(),
    slot_interval_minutes: s.integer(),
    min_notice_minutes: s.integer(),
    max_advance_days: s.integer(),
    price: { type: ['number', 'null'] },
    unit_ids: s.array(s.uuid()),
    units: s.array(s.object({ id: s.uuid(), name: s.string(), timezone: s.string() })),
    reminder_offsets_minutes: { type: ['array', 'null'], items: { type: 'integer' } },
    reminder_text: s.nullableString(),
    active: s.boolean(),
  }),
);

/** Client fields of a request: `client_id`, or `phone` (+ `name`, upserted). */
export const clientInput = {
  client_id: { type: 'string', format: 'uuid', description: 'An existing contact; wins over phone.' },
  phone: { type: 'string', minLength: 1, maxLength: 32, description: 'Phone of the contact (found or created), when no client_id.' },
  name: { type: 'string', minLength: 1, maxLength: 200, description: 'Name of a contact created from phone.' },
};

export const idempotencyHeader = {
  'Idempotency-Key': {
    schema: { type: 'string' },
    description: 'A unique key (a UUID) per request: a repeated call within 24 hours returns the first answer with `meta.idempotent_replay: true` and creates nothing.',
  },
};
