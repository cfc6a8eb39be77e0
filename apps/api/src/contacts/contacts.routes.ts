import {
  Clock,
  UpcomingAppointments,
  ContactFieldTypes,
  ManageContactFields,
  ManageContacts,
  MAX_CONTACT_FIELDS,
  normalizePhone,
  ReadContacts,
  ReadTickets,
  UpsertContact,
  type ContactRepositories,
  type IdempotentRequests,
  type TagRepositories,
  type ContactFieldType,
} from '@carteiro/core';
import { defineRoute, idParam, reply } from '../http/route.js';
import { listOfCompany } from '../shared/list-of-company.js';
import { getById } from '../shared/get-by-id.js';
import { adminDeleteById, adminUpdateById } from '../shared/admin-update-by-id.js';
import { adminCreateInCompany } from '../shared/admin-create-in-company.js';
import { component, pageProperties, s, typed, type PageQuery } from '../http/schema.js';
import { appointmentView } from '../scheduling/scheduling-views.js';
import { ticketView } from '../tickets/ticket-views.js';
import { Ticket } from '../tickets/tickets.routes.js';
import { contactDetailView, contactView, fieldView } from './contact-views.js';
import { ContactIdempotency } from './contacts.module.js';
import { idempotencyOf } from '../shared/idempotency-of.js';

/** The Idempotency-Key header of the contact and import creations (as on campaigns). */
export const idempotencyHeader = {
  'Idempotency-Key': {
    schema: { type: 'string' },
    description:
      'A unique key (a UUID) per request, 1 to 255 visible ASCII characters: a repeated call within 24 hours returns the first answer with `meta.idempotent_replay: true` and writes nothing.',
  },
};
export const replayMeta = s.object({ idempotent_replay: s.boolean() }, { description: 'Present on an idempotent replay.' });

const read = { scope: 'contacts:read' } as const;
const write = { scope: 'contacts:write' } as const;
const contactId = { id: idParam('contact', 'Contact') };

const customFields = {
  type: 'object',
  maxProperties: MAX_CONTACT_FIELDS,
  propertyNames: { pattern: '^[a-z][a-z0-9_]{0,39}$' },
  additionalProperties: true,
  description: 'Values by field key, checked against the definitions (GET /v1/contact-fields).',
};

const ContactFields = {
  id: s.uuid(),
  phone: s.string({ description: 'E.164.' }),
  name: s.nullableString(),
  email: s.nullableString(),
  custom_fields: { type: 'object', additionalProperties: true },
  tag_ids: s.array(s.uuid()),
  ia_ativa: s.boolean({ description: 'The assistant in effect now: switched on and not paused.' }),
  ia_paused_until: s.nullableDateTime(),
  last_inbound_at: s.nullableDateTime(),
  created_at: s.dateTime(),
  updated_at: s.dateTime(),
};
const Contact = component('Contact', s.object(ContactFields));
const TagSchema = s.object({ id: s.uuid(), name: s.string(), description: s.nullableString(), color: s.nullableString(), created_at: s.dateTime(), updated_at: s.dateTime() });
const ContactDetail = component(
  'ContactDetail',
  s.object({
    ...ContactFields,
    tags: s.array(TagSchema),
    active_tickets: s.array(Ticket, { description: 'The contact’s active tickets (one per box at most), most recently active first.' }),
    recent_tickets: s.array(Ticket, { description: 'The contact’s five closed tickets most recently active.' }),
    upcoming_appointments: s.array({ type: 'object' }, { description: 'The next (at most 10) scheduled or confirmed appointments, soonest first, as GET /v1/appointments lists them.' }),
    affinities: s.array(s.object({ setor_id: s.uuid(), source: s.string(), created_at: s.dateTime() })),
    stats: s.object({ conversations: s.integer(), messages_sent: s.integer(), last_inbound_at: s.nullableDateTime(), last_outbound_at: s.nullableDateTime() }),
  }),
);
const ContactField = component(
  'ContactField',
  s.object({ id: s.uuid(), key: s.string(), label: s.string(), type: s.enum(ContactFieldTypes), options: s.array(s.string()), created_at: s.dateTime(), updated_at: s.dateTime() }),
);

interface ListQuery extends PageQuery {
  phone?: string;
  q?: string;
  ia_ativa?: boolean;
  tag_id?: string;
  updated_since?: string;
}

interface UpsertBody {
  phone: string;
  name?: string | null;
  email?: string | null;
  custom_fields?: Record<string, unknown>;
  tag_ids?: string[];
}

const fieldBody = {
  key: s.string({ pattern: '^[a-z][a-z0-9_]{0,39}$' }),
  label: s.string({ minLength: 1, maxLength: 100 }),
  type: s.enum(ContactFieldTypes),
  options: s.array(s.string({ minLength: 1, maxLength: 100 }), { maxItems: 200, uniqueItems: true }),
};

/** Contacts and their field definitions (conversations.md §4), and the operator's field routes (§9). */
export const contactsRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/contacts',
    auth: read,
    operationId: 'listContacts',
    summary: 'List or search contacts',
    description: '`phone` matches either ninth-digit form; `q` part of the name, email or phone digits; `tag_id` (comma-separated) contacts holding all.',
    tag: 'Contacts',
    query: typed<ListQuery>({
      type: 'object',
      properties: {
        phone: s.string({ minLength: 1, maxLength: 64 }),
        q: s.string({ minLength: 1, maxLength: 100 }),
        ia_ativa: s.boolean(),
        tag_id: s.string({ minLength: 1, maxLength: 2000, description: 'Tag ids separated by commas: contacts holding every one.' }),
        updated_since: s.dateTime(),
        ...pageProperties(100),
      },
    }),
    response: { status: 200, description: 'A page of contacts, newest first.', data: s.page(Contact) },
    errors: ['INVALID_NUMBER'],
    async handler({ query, principal, use }) {
      const now = use<Clock>(Clock).now();
      const page = await use(ReadContacts).list(
        principal.company.id,
        {
          phone: query.phone ? normalizePhone(query.phone, 'phone', principal.company.defaultCountry) : undefined,
          q: query.q,
          iaAtiva: query.ia_ativa,
          tagIds: query.tag_id ? [...new Set(query.tag_id.split(',').map((t) => t.trim().toLowerCase()).filter(Boolean))] : undefined,
          updatedSince: query.updated_since ? new Date(query.updated_since) : undefined,
        },
        { page: query.page, limit: query.limit },
      );
      return { ...page, items: page.items.map((c) => contactView(c, now)) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/contacts',
    auth: write,
    operationId: 'upsertContact',
    summary: 'Create or fill a contact by phone',
    description:
      'Creates the contact (201) or, when one has the number in either ninth-digit form, writes only its empty fields (200): `filled` lists what was written, `kept` what was left as it was. Tags are only added.',
    tag: 'Contacts',
    headers: idempotencyHeader,
    body: {
      schema: typed<UpsertBody>({
        type: 'object',
        required: ['phone'],
        additionalProperties: false,
        properties: {
          phone: s.string({ minLength: 1, maxLength: 64 }),
          name: s.nullableString({ maxLength: 100 }),
          email: s.nullableString({ maxLength: 254, format: 'email' }),
          custom_fields: customFields,
          tag_ids: s.array(s.uuid(), { maxItems: 50 }),
        },
      }),
      example: { phone: '+5511987654321', name: 'Ana', custom_fields: { plano: 'ouro' } },
    },
    response: {
      status: 201,
      description: 'Created (201) or existing (200).',
      data: s.object({ ...ContactFields, created: s.boolean(), filled: s.array(s.string()), kept: s.array(s.string()) }),
      meta: replayMeta,
    },
    errors: ['INVALID_NUMBER', 'NOT_FOUND', 'IDEMPOTENCY_KEY_IN_USE', 'IDEMPOTENCY_KEY_MISMATCH'],
    async handler({ body, headers, principal, res, use }) {
      const input = {
        phone: body.phone,
        name: body.name,
        email: body.email,
        customFields: body.custom_fields,
        tagIds: body.tag_ids?.map((t) => t.toLowerCase()),
      };
      const upsert = use(UpsertContact);
      const now = () => use<Clock>(Clock).now();
      const answer = (result: Awaited<ReturnType<UpsertContact['execute']>>) => ({
        status: result.created ? 201 : 200,
        body: { ...contactView({ ...result.contact, tagIds: result.tagIds }, now()), created: result.created, filled: result.filled, kept: result.kept },
      });
      const idempotency = idempotencyOf(headers, principal, '/v1/contacts', body);
      if (idempotency === undefined) {
        const { status, body: view } = answer(await upsert.execute(principal.company, input));
        return reply(view, { status });
      }
      const outcome = await use<IdempotentRequests<ContactRepositories & TagRepositories>>(ContactIdempotency).run(
        principal.company.id,
        idempotency,
        async (repos) => answer(await upsert.run(repos, principal.company, input)),
      );
      if (!outcome.replay) return reply(outcome.body, { status: outcome.status });
      res.setHeader('Idempotent-Replayed', 'true');
      return reply(outcome.body, { status: outcome.status, meta: { idempotent_replay: true } });
    },
  }),
  getById({
    path: '/v1/contacts/:id', auth: read, params: contactId,
    operationId: 'getContact', summary: 'Read a contact (360 view)', tag: 'Contacts',
    response: { description: 'The contact with its tags, tickets, appointments, affinities and stats.', data: ContactDetail },
    async read(use, companyId, id) {
      const detail = await use(ReadContacts).detail(companyId, id);
      const [upcoming, tickets] = await Promise.all([
        use(UpcomingAppointments).execute(companyId, detail.contact.id),
        use(ReadTickets).ofContact(companyId, detail.contact.id),
      ]);
      return contactDetailView(detail, use<Clock>(Clock).now(), {
        upcomingAppointments: upcoming.items.map((a) => appointmentView(a, upcoming.names(a))),
        activeTickets: tickets.active.map(ticketView),
        recentTickets: tickets.recent.map(ticketView),
      });
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/contacts/:id',
    auth: write,
    operationId: 'updateContact',
    summary: 'Update a contact',
    description: 'Each field given replaces the stored one; `null` clears it (a custom field: removes its value). Custom fields are checked against their definitions.',
    tag: 'Contacts',
    params: contactId,
    body: {
      schema: typed<{ name?: string | null; email?: string | null; custom_fields?: Record<string, unknown> }>({
        type: 'object',
        additionalProperties: false,
        minProperties: 1,
        properties: { name: s.nullableString({ maxLength: 100 }), email: s.nullableString({ maxLength: 254, format: 'email' }), custom_fields: customFields },
      }),
      example: { name: 'Ana Souza', custom_fields: { cpf: '529.982.247-25' } },
    },
    response: { status: 200, description: 'The contact.', data: s.object({ ...ContactFields, changed: s.boolean() }) },
    errors: ['NOT_FOUND'],
    async handler({ params, body, principal, use }) {
      const result = await use(ManageContacts).update(principal.company.id, params.id, { name: body.name, email: body.email, customFields: body.custom_fields });
      return { ...contactView(result.contact, use<Clock>(Clock).now()), changed: result.changed };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/contacts/:id/assistant',
    auth: write,
    operationId: 'setContactAssistant',
    summary: "Pause or resume the contact's assistant",
    description: '`ia_ativa` switches it; `paused_until` (at most 30 days ahead) pauses it, and it is active again after that instant.',
    tag: 'Contacts',
    params: contactId,
    body: {
      schema: typed<{ ia_ativa?: boolean; paused_until?: string | null }>({
        type: 'object',
        additionalProperties: false,
        minProperties: 1,
        properties: { ia_ativa: s.boolean(), paused_until: s.nullableDateTime() },
      }),
      example: { paused_until: '2026-12-01T12:00:00Z' },
    },
    response: { status: 200, description: 'The contact.', data: s.object({ ...ContactFields, changed: s.boolean() }) },
    errors: ['NOT_FOUND'],
    async handler({ params, body, principal, use }) {
      const result = await use(ManageContacts).setAssistant(principal.company.id, params.id, {
        iaAtiva: body.ia_ativa,
        pausedUntil: body.paused_until === undefined ? undefined : body.paused_until === null ? null : new Date(body.paused_until),
      });
      return { ...contactView(result.contact, use<Clock>(Clock).now()), changed: result.changed };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/contacts/:id/merge',
    auth: write,
    operationId: 'mergeContacts',
    summary: 'Merge another contact into this one',
    description: 'In one transaction: conversations, messages, tags, affinities and empty fields move to this contact; the other is deleted; `contact.merged`.',
    tag: 'Contacts',
    params: contactId,
    body: { schema: typed<{ merge_contact_id: string }>({ type: 'object', required: ['merge_contact_id'], additionalProperties: false, properties: { merge_contact_id: s.uuid() } }) },
    response: { status: 200, description: 'The surviving contact.', data: Contact },
    errors: ['NOT_FOUND', 'CONFLICT'],
    async handler({ params, body, principal, use }) {
      const survivor = await use(ManageContacts).merge(principal.company.id, params.id, body.merge_contact_id.toLowerCase());
      return contactView(survivor, use<Clock>(Clock).now());
    },
  }),
  listOfCompany({
    path: '/v1/contact-fields', auth: read,
    operationId: 'listContactFields', summary: 'List the custom-field definitions', tag: 'Contacts',
    response: { description: 'Every definition of the company, by key.', item: ContactField },
    list: (use, companyId) => use(ReadContacts).fields(companyId), view: fieldView,
  }),
  adminCreateInCompany({
    path: '/admin/v1/companies/:id/contact-fields',
    operationId: 'adminCreateContactField',
    summary: 'Define a custom contact field',
    description: '`key` unique in the company (409), `type` never changes, `options` (select types) only grow.',
    validationCode: 'BAD_REQUEST',
    body: {
      schema: typed<{ key: string; label: string; type: ContactFieldType; options?: string[] }>({
        type: 'object',
        required: ['key', 'label', 'type'],
        additionalProperties: false,
        properties: fieldBody,
      }),
      example: { key: 'plano', label: 'Plano', type: 'select', options: ['ouro', 'prata'] },
    },
    response: { description: 'The definition.', data: ContactField },
    errors: ['BAD_REQUEST', 'NOT_FOUND', 'CONFLICT', 'UNPROCESSABLE'],
    create: async (use, companyId, body) => fieldView(await use(ManageContactFields).create(companyId, body)),
  }),
  adminUpdateById({
    path: '/admin/v1/contact-fields/:id',
    operationId: 'adminUpdateContactField',
    summary: 'Edit a custom contact field',
    description: 'The label, and options added (every current option must be kept). Another `type` or `key` is a 400.',
    record: 'contact field',
    validationCode: 'BAD_REQUEST',
    body: {
      schema: typed<{ label?: string; options?: string[]; type?: string; key?: string }>({ type: 'object', additionalProperties: false, minProperties: 1, properties: fieldBody }),
      example: { options: ['ouro', 'prata', 'bronze'] },
    },
    response: { description: 'The definition.', data: ContactField },
    update: async (use, id, body) => fieldView(await use(ManageContactFields).update(id, body)),
  }),
  adminDeleteById({
    path: '/admin/v1/contact-fields/:id',
    operationId: 'adminDeleteContactField',
    summary: 'Delete a custom contact field',
    description: 'Its values are removed from every contact.',
    record: 'contact field',
    response: { description: 'Deleted.', data: s.object({ deleted: s.boolean({ const: true }), id: s.uuid(), values_removed: s.integer({ minimum: 0 }) }) },
    async remove(use, id) {
      const result = await use(ManageContactFields).delete(id);
      return { deleted: true, id: result.id, values_removed: result.valuesRemoved };
    },
  }),
];
