import {
  BookAppointment,
  CancelAppointment,
  ChangeAppointment,
  GetAvailability,
  localOf,
  ReadAppointments,
  ReadSchedulingCatalog,
  type AppointmentStatus,
  type Attendance,
} from '@carteiro/core';
import { defineRoute, idParam, type RouteDefinition } from '../http/route.js';
import { getById } from '../shared/get-by-id.js';
import { s, typed, type JsonSchema } from '../http/schema.js';
import { AppointmentDetailSchema, AppointmentSchema, AppointmentTypeSchema, clientInput, Local, ProfessionalSchema, UnitSchema } from './scheduling-schemas.js';
import { callerAndClient, idempotentCreate } from './idempotent-create.js';
import { appointmentDetailView, appointmentTypeView, appointmentView, professionalView, unitView } from './scheduling-views.js';

const read = { scope: 'appointments:read' } as const;
const write = { scope: 'appointments:write' } as const;
const appointmentId = { id: idParam('appointment', 'Appointment') };
const statuses = ['scheduled', 'confirmed', 'cancelled', 'attended', 'no_show'] as const;
const date = { type: 'string', format: 'date', description: 'A date YYYY-MM-DD in the unit’s zone.' };

interface BookBody {
  appointment_type_id: string;
  starts_at: string;
  client_id?: string;
  phone?: string;
  name?: string;
  professional_id?: string;
  unit_id?: string;
  description?: string;
  ticket_id?: string;
  setor_id?: string;
  reminder_offsets_minutes?: number[];
  allow_outside_hours?: boolean;
}

interface ChangeBody {
  starts_at?: string;
  professional_id?: string;
  unit_id?: string;
  attendance?: Attendance;
  status?: 'confirmed';
  description?: string | null;
  notify?: boolean;
}

/**
 * `GET /v1/<catalogue records>`: every record of one kind of the caller's company (`?active=` keeps the active or
 * the inactive ones), as `list` reads them from the catalogue.
 */
function catalogList(route: {
  path: string;
  operationId: string;
  summary: string;
  /** The 200 answer: what the list holds and the schema of one item. */
  response: { description: string; item: JsonSchema };
  list(catalog: ReadSchedulingCatalog, companyId: string, filter: { active?: boolean }): Promise<unknown[]>;
}): RouteDefinition {
  const { response, list, ...rest } = route;
  return defineRoute<string, { active?: boolean }>({
    method: 'get',
    ...rest,
    auth: read,
    tag: 'Appointments',
    query: typed<{ active?: boolean }>({ type: 'object', additionalProperties: false, properties: { active: { type: 'boolean' } } }),
    response: { status: 200, description: response.description, data: s.array(response.item) },
    async handler({ query, principal, use }) {
      return list(use(ReadSchedulingCatalog), principal.company.id, query.active === undefined ? {} : { active: query.active });
    },
  });
}

const conflictDetails =
  '409 SLOT_TAKEN / APPOINTMENT_CONFLICT carry `details { conflict { starts_at, ends_at }, alternatives[] { starts_at, ends_at, local, professional_id, unit_id } }` (the next 3 free slots).';

/** /v1/appointments, /v1/appointment-types, /v1/professionals, /v1/units (business.md §1). */
export const appointmentsRoutes = [
  catalogList({
    path: '/v1/appointment-types',
    operationId: 'listAppointmentTypes',
    summary: 'List appointment types',
    response: { description: 'Types with their units.', item: AppointmentTypeSchema },
    async list(catalog, companyId, filter) {
      const [types, units] = await Promise.all([catalog.types(companyId, filter), catalog.units(companyId, {})]);
      return types.map((t) => appointmentTypeView(t, units));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/professionals',
    auth: read,
    operationId: 'listProfessionals',
    summary: 'List professionals',
    tag: 'Appointments',
    query: typed<{ unit_id?: string; appointment_type_id?: string; active?: boolean }>({
      type: 'object',
      additionalProperties: false,
      properties: { unit_id: { type: 'string', format: 'uuid' }, appointment_type_id: { type: 'string', format: 'uuid' }, active: { type: 'boolean' } },
    }),
    response: { status: 200, description: 'Professionals with schedule and services.', data: s.array(ProfessionalSchema) },
    async handler({ query, principal, use }) {
      const list = await use(ReadSchedulingCatalog).professionals(principal.company.id, {
        ...(query.unit_id ? { unitId: query.unit_id } : {}),
        ...(query.appointment_type_id ? { appointmentTypeId: query.appointment_type_id } : {}),
        ...(query.active !== undefined ? { active: query.active } : {}),
      });
      return list.map(professionalView);
    },
  }),
  catalogList({
    path: '/v1/units',
    operationId: 'listUnits',
    summary: 'List units',
    response: { description: 'Units with address and time zone.', item: UnitSchema },
    list: async (catalog, companyId, filter) => (await catalog.units(companyId, filter)).map(unitView),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/appointments/availability',
    auth: read,
    operationId: 'getAvailability',
    summary: 'Free slots of an appointment type',
    description:
      'Dates `from`/`to` (both inclusive, at most 31 days) in the unit’s zone; hours are converted date by date. Leaves out busy time with buffers, notice, maximum advance and holidays. At most 2,000 items (`truncated`).',
    tag: 'Appointments',
    query: typed<{ appointment_type_id: string; from: string; to: string; professional_id?: string; unit_id?: string }>({
      type: 'object',
      additionalProperties: false,
      required: ['appointment_type_id', 'from', 'to'],
      properties: { appointment_type_id: { type: 'string', format: 'uuid' }, from: date, to: date, professional_id: { type: 'string', format: 'uuid' }, unit_id: { type: 'string', format: 'uuid' } },
    }),
    response: {
      status: 200,
      description: 'Free slots.',
      data: s.object({
        timezone: s.string(),
        items: s.array(s.object({ starts_at: s.dateTime(), ends_at: s.dateTime(), local: Local, unit_id: s.uuid(), professional_ids: s.array(s.uuid()) })),
        truncated: s.boolean(),
      }),
    },
    async handler({ query, principal, use }) {
      const result = await use(GetAvailability).execute(principal.company, {
        appointmentTypeId: query.appointment_type_id,
        from: query.from,
        to: query.to,
        ...(query.professional_id ? { professionalId: query.professional_id } : {}),
        ...(query.unit_id ? { unitId: query.unit_id } : {}),
      });
      return {
        timezone: result.timezone,
        truncated: result.truncated,
        items: result.items.map((slot) => ({
          starts_at: slot.startsAt.toISOString(),
          ends_at: slot.endsAt.toISOString(),
          local: localOf(slot.startsAt, slot.timezone),
          unit_id: slot.unitId,
          professional_ids: slot.professionalIds,
        })),
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/appointments',
    auth: read,
    operationId: 'listAppointments',
    summary: 'List appointments',
    description: 'By `starts_at`, then id, with a cursor. `from`/`to` take dates (company zone) or instants; default today + 31 days, at most 92 days; or `client_id` alone. Cancelled ones only with `status=cancelled`.',
    tag: 'Appointments',
    query: typed<{ from?: string; to?: string; client_id?: string; status?: AppointmentStatus; professional_id?: string; unit_id?: string; cursor?: string; limit: number }>({
      type: 'object',
      additionalProperties: false,
      properties: {
        from: { type: 'string', minLength: 10, maxLength: 40 },
        to: { type: 'string', minLength: 10, maxLength: 40 },
        client_id: { type: 'string', format: 'uuid' },
        status: { type: 'string', enum: [...statuses] },
        professional_id: { type: 'string', format: 'uuid' },
        unit_id: { type: 'string', format: 'uuid' },
        cursor: { type: 'string', minLength: 1, maxLength: 200 },
        limit: { type: 'integer', minimum: 1, maximum: 100, default: 50 },
      },
    }),
    response: { status: 200, description: 'A cursor page.', data: s.object({ items: s.array(AppointmentSchema), next_cursor: s.nullableString(), limit: s.integer() }) },
    async handler({ query, principal, use }) {
      const page = await use(ReadAppointments).list(principal.company, {
        ...(query.from ? { from: query.from } : {}),
        ...(query.to ? { to: query.to } : {}),
        ...(query.client_id ? { clientId: query.client_id } : {}),
        ...(query.status ? { status: query.status } : {}),
        ...(query.professional_id ? { professionalId: query.professional_id } : {}),
        ...(query.unit_id ? { unitId: query.unit_id } : {}),
        ...(query.cursor ? { cursor: query.cursor } : {}),
        limit: query.limit,
      });
      return { items: page.items.map((a) => appointmentView(a, page.names(a))), next_cursor: page.nextCursor, limit: page.limit };
    },
  }),
  idempotentCreate({
    path: '/v1/appointments',
    auth: write,
    operationId: 'createAppointment',
    summary: 'Book an appointment',
    description:
      'Double booking is impossible: the professional’s busy time is one PostgreSQL exclusion constraint. ' +
      conflictDetails +
      ' 422 `details.reason`: outside_working_hours, min_notice, max_advance, holiday, not_enabled. Without `professional_id`, the least-booked free professional.',
    tag: 'Appointments',
    body: {
      schema: typed<BookBody>({
        type: 'object',
        additionalProperties: false,
        required: ['appointment_type_id', 'starts_at'],
        properties: {
          appointment_type_id: { type: 'string', format: 'uuid' },
          starts_at: { type: 'string', format: 'date-time', description: 'An instant with an offset.' },
          ...clientInput,
          professional_id: { type: 'string', format: 'uuid' },
          unit_id: { type: 'string', format: 'uuid' },
          description: { type: 'string', maxLength: 2000 },
          ticket_id: { type: 'string', format: 'uuid' },
          setor_id: { type: 'string', format: 'uuid' },
          reminder_offsets_minutes: { type: 'array', maxItems: 3, items: { type: 'integer', minimum: 15, maximum: 10080 } },
          allow_outside_hours: { type: 'boolean' },
        },
      }),
      example: { appointment_type_id: '00000000-0000-4000-8000-000000000001', starts_at: '2026-12-01T14:00:00-03:00', phone: '+5511987654321', name: 'Ana' },
    },
    response: { description: 'Booked.', data: AppointmentDetailSchema },
    errors: ['NOT_FOUND', 'SLOT_TAKEN', 'UNPROCESSABLE', 'PLAN_LIMIT_REACHED', 'INVALID_NUMBER'],
    create: (use, principal, body, idempotency) =>
      use(BookAppointment).execute(
        {
          ...callerAndClient(principal, body),
          appointmentTypeId: body.appointment_type_id,
          startsAt: new Date(body.starts_at),
          professionalId: body.professional_id ?? null,
          unitId: body.unit_id ?? null,
          description: body.description ?? null,
          ticketId: body.ticket_id ?? null,
          reminderOffsetsMinutes: body.reminder_offsets_minutes ?? null,
          allowOutsideHours: body.allow_outside_hours ?? false,
        },
        appointmentDetailView,
        idempotency,
      ),
  }),
  getById({
    path: '/v1/appointments/:id', auth: read, params: appointmentId,
    operationId: 'getAppointment', summary: 'Get an appointment', tag: 'Appointments',
    response: { description: 'The appointment with reminders and history.', data: AppointmentDetailSchema },
    read: async (use, companyId, id) => appointmentDetailView(await use(ReadAppointments).get(companyId, id)),
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/appointments/:id',
    auth: write,
    params: appointmentId,
    operationId: 'updateAppointment',
    summary: 'Reschedule, confirm or mark attendance',
    description: 'One of `starts_at` (+ `professional_id`, `unit_id`), `attendance` (from the start on) or `status: "confirmed"`; `description` alongside. ' + conflictDetails,
    tag: 'Appointments',
    body: {
      schema: typed<ChangeBody>({
        type: 'object',
        additionalProperties: false,
        properties: {
          starts_at: { type: 'string', format: 'date-time' },
          professional_id: { type: 'string', format: 'uuid' },
          unit_id: { type: 'string', format: 'uuid' },
          attendance: { type: 'string', enum: ['attended', 'no_show'] },
          status: { type: 'string', enum: ['confirmed'] },
          description: { type: ['string', 'null'], maxLength: 2000 },
          notify: { type: 'boolean', description: 'With `starts_at`: send the client an appointment notice of the new time (default false).' },
        },
      }),
      example: { status: 'confirmed' },
    },
    response: { status: 200, description: 'The appointment.', data: AppointmentDetailSchema },
    errors: ['NOT_FOUND', 'APPOINTMENT_CONFLICT', 'INVALID_TRANSITION', 'UNPROCESSABLE'],
    async handler({ params, body, principal, use }) {
      return appointmentDetailView(
        await use(ChangeAppointment).execute({
          companyId: principal.company.id,
          id: params.id,
          ...(body.starts_at ? { startsAt: new Date(body.starts_at) } : {}),
          ...(body.professional_id ? { professionalId: body.professional_id } : {}),
          ...(body.unit_id ? { unitId: body.unit_id } : {}),
          ...(body.attendance ? { attendance: body.attendance } : {}),
          ...(body.status ? { status: body.status } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...(body.notify ? { notify: true } : {}),
        }),
      );
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/appointments/:id',
    auth: write,
    params: appointmentId,
    operationId: 'cancelAppointment',
    summary: 'Cancel an appointment',
    description: 'Final. Pending reminders are cancelled in the same transaction. A repeat answers the same 200.',
    tag: 'Appointments',
    body: {
      required: false,
      schema: typed<{ reason?: string; notify?: boolean }>({ type: 'object', additionalProperties: false, properties: { reason: { type: 'string', maxLength: 500 }, notify: { type: 'boolean', description: 'Send the client an appointment notice of the cancellation (default false).' } } }),
    },
    response: {
      status: 200,
      description: 'Cancelled.',
      data: s.object({ id: s.uuid(), status: s.enum(['cancelled']), cancelled_at: s.dateTime(), reminders_cancelled: s.integer({ minimum: 0 }) }),
    },
    errors: ['INVALID_TRANSITION'],
    async handler({ params, body, principal, use }) {
      const { appointment, remindersCancelled } = await use(CancelAppointment).execute(principal.company.id, params.id, { reason: body?.reason ?? null, by: 'api', notify: body?.notify === true });
      return { id: appointment.id, status: 'cancelled', cancelled_at: appointment.cancelledAt!.toISOString(), reminders_cancelled: remindersCancelled };
    },
  }),
];
