import { ManageSchedulingCatalog, parseClock, type ErrorCode, type ScheduleEntry } from '@carteiro/core';
import { adminIdParam, defineRoute, type HttpMethod, type RouteDefinition, type RouteResponse } from '../http/route.js';
import { s, typed, type JsonSchema, type TypedSchema } from '../http/schema.js';
import { adminCreateInCompany } from '../shared/admin-create-in-company.js';
import { AppointmentTypeSchema, ProfessionalSchema, UnitSchema } from './scheduling-schemas.js';
import { appointmentTypeView, blockView, professionalView, reminderSettingsView, unitView } from './scheduling-views.js';

const admin = 'admin' as const;
const tag = 'Admin: scheduling';
const nullableText = (max: number) => ({ type: ['string', 'null'], maxLength: max });

interface AddressBody {
  street?: string | null;
  number?: string | null;
  district?: string | null;
  city?: string | null;
  uf?: string | null;
  postal_code?: string | null;
  ibge_code?: string | null;
}
interface UnitBody {
  name?: string;
  address?: AddressBody;
  timezone?: string;
  open_on_holidays?: boolean;
  active?: boolean;
}
interface ScheduleItem {
  unit_id: string;
  weekday: number;
  start: string;
  end: string;
}
interface ServiceItem {
  appointment_type_id: string;
  unit_id: string;
}
interface ProfessionalBody {
  name?: string;
  phone?: string | null;
  active?: boolean;
  schedule?: ScheduleItem[];
  services?: ServiceItem[];
}
interface TypeBody {
  name?: string;
  duration_minutes?: number;
  buffer_before_minutes?: number;
  buffer_after_minutes?: number;
  slot_interval_minutes?: number;
  min_notice_minutes?: number;
  max_advance_days?: number;
  price?: number | null;
  unit_ids?: string[];
  reminder_offsets_minutes?: number[] | null;
  reminder_text?: string | null;
  reminder_template?: { name: string; language: string; parameters?: string[] } | null;
  active?: boolean;
}

const addressSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    street: nullableText(200),
    number: nullableText(20),
    district: nullableText(120),
    city: nullableText(120),
    uf: { type: ['string', 'null'], pattern: '^[A-Za-z]{2}$' },
    postal_code: nullableText(12),
    ibge_code: { type: ['string', 'null'], pattern: '^\\d{7}$' },
  },
};
const unitProperties = {
  name: { type: 'string', minLength: 1, maxLength: 200 },
  address: addressSchema,
  timezone: { type: 'string', minLength: 1, maxLength: 64, description: 'IANA zone, e.g. America/Manaus.' },
  open_on_holidays: { type: 'boolean' },
  active: { type: 'boolean' },
};
const hhmm = { type: 'string', pattern: '^([01]\\d|2[0-3]):[0-5]\\d$|^24:00$' };
const scheduleSchema = {
  type: 'array',
  maxItems: 100,
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['unit_id', 'weekday', 'start', 'end'],
    properties: { unit_id: { type: 'string', format: 'uuid' }, weekday: { type: 'integer', minimum: 0, maximum: 6 }, start: hhmm, end: hhmm },
  },
};
const servicesSchema = {
  type: 'array',
  maxItems: 200,
  items: { type: 'object', additionalProperties: false, required: ['appointment_type_id', 'unit_id'], properties: { appointment_type_id: { type: 'string', format: 'uuid' }, unit_id: { type: 'string', format: 'uuid' } } },
};
const professionalProperties = {
  name: { type: 'string', minLength: 1, maxLength: 200 },
  phone: nullableText(32),
  active: { type: 'boolean' },
  schedule: scheduleSchema,
  services: servicesSchema,
};
const offsets = { type: ['array', 'null'], maxItems: 3, items: { type: 'integer', minimum: 1, maximum: 10080 } };
const typeProperties = {
  name: { type: 'string', minLength: 1, maxLength: 200 },
  duration_minutes: { type: 'integer', minimum: 5, maximum: 720 },
  buffer_before_minutes: { type: 'integer', minimum: 0, maximum: 720 },
  buffer_after_minutes: { type: 'integer', minimum: 0, maximum: 720 },
  slot_interval_minutes: { type: 'integer', minimum: 5, maximum: 720 },
  min_notice_minutes: { type: 'integer', minimum: 0, maximum: 525600 },
  max_advance_days: { type: 'integer', minimum: 1, maximum: 730 },
  price: { type: ['number', 'null'], minimum: 0, maximum: 99999999, multipleOf: 0.01 },
  unit_ids: { type: 'array', maxItems: 100, items: { type: 'string', format: 'uuid' } },
  reminder_offsets_minutes: offsets,
  reminder_text: nullableText(4096),
  reminder_template: {
    type: ['object', 'null'],
    additionalProperties: false,
    required: ['name', 'language'],
    properties: { name: { type: 'string', minLength: 1, maxLength: 512 }, language: { type: 'string', minLength: 2, maxLength: 15 }, parameters: { type: 'array', maxItems: 20, items: { type: 'string', maxLength: 1024 } } },
  },
  active: { type: 'boolean' },
};

function schedule(items: ScheduleItem[]): ScheduleEntry[] {
  return items.map((e, i) => ({ unitId: e.unit_id, weekday: e.weekday, startMinute: parseClock(e.start, `schedule[${i}].start`), endMinute: parseClock(e.end, `schedule[${i}].end`, true) }));
}
const services = (items: ServiceItem[]) => items.map((e) => ({ appointmentTypeId: e.appointment_type_id, unitId: e.unit_id }));

function address(a: AddressBody | undefined) {
  if (!a) return undefined;
  const out: Record<string, string | null> = {};
  const map: Record<string, string> = { street: 'street', number: 'number', district: 'district', city: 'city', uf: 'uf', postal_code: 'postalCode', ibge_code: 'ibgeCode' };
  for (const [k, v] of Object.entries(a)) out[map[k]!] = k === 'uf' && typeof v === 'string' ? v.toUpperCase() : (v ?? null);
  return out;
}

function unitInput(b: UnitBody) {
  return {
    ...(b.name !== undefined ? { name: b.name } : {}),
    ...(b.address !== undefined ? { address: address(b.address)! } : {}),
    ...(b.timezone !== undefined ? { timezone: b.timezone } : {}),
    ...(b.open_on_holidays !== undefined ? { openOnHolidays: b.open_on_holidays } : {}),
    ...(b.active !== undefined ? { active: b.active } : {}),
  };
}

function professionalInput(b: ProfessionalBody) {
  return {
    ...(b.name !== undefined ? { name: b.name } : {}),
    ...(b.phone !== undefined ? { phone: b.phone } : {}),
    ...(b.active !== undefined ? { active: b.active } : {}),
    ...(b.schedule !== undefined ? { schedule: schedule(b.schedule) } : {}),
    ...(b.services !== undefined ? { services: services(b.services) } : {}),
  };
}

function typeInput(b: TypeBody) {
  const pairs: Array<[keyof TypeBody, string]> = [
    ['name', 'name'],
    ['duration_minutes', 'durationMinutes'],
    ['buffer_before_minutes', 'bufferBeforeMinutes'],
    ['buffer_after_minutes', 'bufferAfterMinutes'],
    ['slot_interval_minutes', 'slotIntervalMinutes'],
    ['min_notice_minutes', 'minNoticeMinutes'],
    ['max_advance_days', 'maxAdvanceDays'],
    ['price', 'price'],
    ['unit_ids', 'unitIds'],
    ['reminder_offsets_minutes', 'reminderOffsetsMinutes'],
    ['reminder_text', 'reminderText'],
    ['active', 'active'],
  ];
  const out: Record<string, unknown> = {};
  for (const [from, to] of pairs) if (b[from] !== undefined) out[to] = b[from];
  if (b.reminder_template !== undefined) out.reminderTemplate = b.reminder_template ? { name: b.reminder_template.name, language: b.reminder_template.language, parameters: b.reminder_template.parameters ?? [] } : null;
  return out;
}

const companyId = { id: adminIdParam('company') };
const Block = s.object({ id: s.uuid(), professional_id: s.uuid(), starts_at: s.dateTime(), ends_at: s.dateTime(), reason: s.nullableString() });
const ReminderSettings = s.object({
  reminder_offsets_minutes: { type: ['array', 'null'], items: { type: 'integer' } },
  reminder_text: s.nullableString(),
  effective_reminder_offsets_minutes: s.array(s.integer()),
});

/** `POST /admin/v1/companies/:id/<records>`: a catalogue record created in the company of the path (201). */
function createInCompany<Body>(route: {
  path: string;
  operationId: string;
  summary: string;
  body: TypedSchema<Body>;
  example: unknown;
  data: JsonSchema;
  create(catalog: ManageSchedulingCatalog, companyId: string, body: Body): Promise<unknown>;
}): RouteDefinition {
  const { body, example, data, create, ...rest } = route;
  return adminCreateInCompany<Body>({
    ...rest,
    tag,
    body: { schema: body, example },
    response: { description: 'Created.', data },
    errors: [],
    create: (use, companyId, body) => create(use(ManageSchedulingCatalog), companyId, body),
  });
}

type CatalogRecord = 'unit' | 'professional' | 'type';
const recordNames: Record<CatalogRecord, string> = { unit: 'unit', professional: 'professional', type: 'appointment type' };

/**
 * A change to one catalogue record addressed by its own id (`/admin/v1/<records>/:id…`): the
 * company is looked up from the record (404 when there is none), then `change` runs.
 */
function changeById<Body>(route: {
  method: HttpMethod;
  record: CatalogRecord;
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  body: TypedSchema<Body>;
  response: RouteResponse;
  errors?: readonly ErrorCode[];
  change(catalog: ManageSchedulingCatalog, companyId: string, id: string, body: Body): Promise<unknown>;
}): RouteDefinition {
  const { record, body, change, ...rest } = route;
  return defineRoute<string, Record<string, never>, Body>({
    ...rest,
    auth: admin,
    params: { id: adminIdParam(recordNames[record]) },
    tag,
    body: { schema: body },
    async handler({ params, body, use }) {
      const catalog = use(ManageSchedulingCatalog);
      const id = (params as { id: string }).id;
      return change(catalog, await catalog.companyOf(record, id), id, body);
    },
  });
}

/** The operator's scheduling catalogue (business.md §8). */
export const schedulingAdminRoutes = [
  createInCompany({
    path: '/admin/v1/companies/:id/units',
    operationId: 'adminCreateUnit',
    summary: 'Create a unit',
    body: typed<UnitBody>({ type: 'object', additionalProperties: false, required: ['name', 'timezone'], properties: unitProperties }),
    example: { name: 'Centro', timezone: 'America/Sao_Paulo', address: { city: 'São Paulo', uf: 'SP' } },
    data: UnitSchema,
    create: async (catalog, companyId, body) => unitView(await catalog.createUnit(companyId, unitInput(body))),
  }),
  createInCompany({
    path: '/admin/v1/companies/:id/professionals',
    operationId: 'adminCreateProfessional',
    summary: 'Create a professional',
    body: typed<ProfessionalBody>({ type: 'object', additionalProperties: false, required: ['name'], properties: professionalProperties }),
    example: { name: 'Dra. Ana' },
    data: ProfessionalSchema,
    create: async (catalog, companyId, body) => professionalView(await catalog.createProfessional(companyId, professionalInput(body))),
  }),
  createInCompany({
    path: '/admin/v1/companies/:id/appointment-types',
    operationId: 'adminCreateAppointmentType',
    summary: 'Create an appointment type',
    body: typed<TypeBody>({ type: 'object', additionalProperties: false, required: ['name', 'duration_minutes'], properties: typeProperties }),
    example: { name: 'Consulta', duration_minutes: 30, unit_ids: [] },
    data: AppointmentTypeSchema,
    create: async (catalog, companyId, body) => appointmentTypeView(await catalog.createType(companyId, typeInput(body))),
  }),
  // Changes by id, as business.md §8 names them: the company is taken from the record.
  changeById({
    method: 'patch',
    record: 'unit',
    path: '/admin/v1/units/:id',
    operationId: 'adminUpdateUnitById',
    summary: 'Update a unit (by id)',
    body: typed<UnitBody>({ type: 'object', additionalProperties: false, properties: unitProperties }),
    response: { status: 200, description: 'Updated.', data: UnitSchema },
    change: async (catalog, companyId, id, body) => unitView(await catalog.updateUnit(companyId, id, unitInput(body))),
  }),
  changeById({
    method: 'patch',
    record: 'professional',
    path: '/admin/v1/professionals/:id',
    operationId: 'adminUpdateProfessionalById',
    summary: 'Update a professional (by id)',
    body: typed<ProfessionalBody>({ type: 'object', additionalProperties: false, properties: professionalProperties }),
    response: { status: 200, description: 'Updated.', data: ProfessionalSchema },
    change: async (catalog, companyId, id, body) => professionalView(await catalog.updateProfessional(companyId, id, professionalInput(body))),
  }),
  changeById({
    method: 'put',
    record: 'professional',
    path: '/admin/v1/professionals/:id/schedule',
    operationId: 'adminReplaceProfessionalScheduleById',
    summary: 'Replace a professional’s schedule (by id)',
    description: 'Weekdays 0-6 (0 Sunday), `HH:MM` in the unit’s zone; windows of one unit and weekday may not overlap.',
    body: typed<{ schedule: ScheduleItem[] }>({ type: 'object', additionalProperties: false, required: ['schedule'], properties: { schedule: scheduleSchema } }),
    response: { status: 200, description: 'Updated.', data: ProfessionalSchema },
    change: async (catalog, companyId, id, body) => professionalView(await catalog.updateProfessional(companyId, id, { schedule: schedule(body.schedule) })),
  }),
  changeById({
    method: 'put',
    record: 'professional',
    path: '/admin/v1/professionals/:id/services',
    operationId: 'adminReplaceProfessionalServicesById',
    summary: 'Replace a professional’s services (by id)',
    body: typed<{ services: ServiceItem[] }>({ type: 'object', additionalProperties: false, required: ['services'], properties: { services: servicesSchema } }),
    response: { status: 200, description: 'Updated.', data: ProfessionalSchema },
    change: async (catalog, companyId, id, body) => professionalView(await catalog.updateProfessional(companyId, id, { services: services(body.services) })),
  }),
  changeById({
    method: 'post',
    record: 'professional',
    path: '/admin/v1/professionals/:id/blocks',
    operationId: 'adminBlockProfessionalTimeById',
    summary: 'Block a professional’s time (by id)',
    description: '409 CONFLICT over an appointment or another block (the same exclusion constraint as bookings).',
    body: typed<{ starts_at: string; ends_at: string; reason?: string }>({
      type: 'object',
      additionalProperties: false,
      required: ['starts_at', 'ends_at'],
      properties: { starts_at: { type: 'string', format: 'date-time' }, ends_at: { type: 'string', format: 'date-time' }, reason: { type: 'string', maxLength: 500 } },
    }),
    response: { status: 201, description: 'Blocked.', data: Block },
    errors: ['CONFLICT'],
    change: async (catalog, companyId, id, body) =>
      blockView(await catalog.addBlock(companyId, id, { startsAt: new Date(body.starts_at), endsAt: new Date(body.ends_at), reason: body.reason ?? null })),
  }),
  changeById({
    method: 'patch',
    record: 'type',
    path: '/admin/v1/appointment-types/:id',
    operationId: 'adminUpdateAppointmentTypeById',
    summary: 'Update an appointment type (by id)',
    body: typed<TypeBody>({ type: 'object', additionalProperties: false, properties: typeProperties }),
    response: { status: 200, description: 'Updated.', data: AppointmentTypeSchema },
    change: async (catalog, companyId, id, body) => appointmentTypeView(await catalog.updateType(companyId, id, typeInput(body))),
  }),
  defineRoute({
    method: 'get',
    path: '/admin/v1/companies/:id/reminder-settings',
    auth: admin,
    params: companyId,
    operationId: 'adminGetReminderSettings',
    summary: 'A company’s reminder settings',
    tag,
    response: { status: 200, description: 'The settings.', data: ReminderSettings },
    async handler({ params, use }) {
      return reminderSettingsView(await use(ManageSchedulingCatalog).reminderSettings(params.id));
    },
  }),
  defineRoute({
    method: 'put',
    path: '/admin/v1/companies/:id/reminder-settings',
    auth: admin,
    params: companyId,
    operationId: 'adminSaveReminderSettings',
    summary: 'Set a company’s reminder offsets and text',
    description: '`reminder_offsets_minutes` (null: the default [1440, 120]) and `reminder_text` (null: the default text). The placeholders of campaigns plus {{servico}} {{profissional}} {{unidade}} {{endereco}} {{data_agendamento}} {{hora_agendamento}}.',
    tag,
    body: {
      schema: typed<{ reminder_offsets_minutes?: number[] | null; reminder_text?: string | null }>({
        type: 'object',
        additionalProperties: false,
        properties: { reminder_offsets_minutes: offsets, reminder_text: nullableText(4096) },
      }),
    },
    response: { status: 200, description: 'The settings.', data: ReminderSettings },
    async handler({ params, body, use }) {
      return reminderSettingsView(
        await use(ManageSchedulingCatalog).saveReminderSettings(params.id, {
          ...(body.reminder_offsets_minutes !== undefined ? { reminderOffsetsMinutes: body.reminder_offsets_minutes } : {}),
          ...(body.reminder_text !== undefined ? { reminderText: body.reminder_text } : {}),
        }),
      );
    },
  }),
];
