import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createClinic } from '../testing/clinic-fixtures.js';
import { createTestApi, type TestApi } from '../testing/test-api.js';

let api: TestApi;
beforeAll(async () => {
  api = await createTestApi();
});
afterAll(() => api.close());

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
/** A company with a connected box, a Manaus unit, a 30-minute type and two professionals working every day. */
const clinic = (settings: Record<string, unknown> = {}, keyMode: 'live' | 'test' = 'live') => createClinic(api, { settings, keyMode });

describe('appointments over HTTP', () => {
  it('lists the catalogue, answers availability in the unit’s zone and books a slot with its reminders and event', async () => {
    const c = await clinic();
    const types = (await request(api.app).get('/v1/appointment-types').set(c.auth).expect(200)).body.data;
    expect(types).toEqual([expect.objectContaining({ id: c.type.id, price: 150.5, units: [{ id: c.unit.id, name: 'Centro', timezone: 'America/Manaus' }] })]);
    expect((await request(api.app).get('/v1/units').set(c.auth).expect(200)).body.data[0]).toMatchObject({ timezone: 'America/Manaus', address: { uf: 'AM', ibge_code: '1302603' } });
    const pros = (await request(api.app).get(`/v1/professionals?appointment_type_id=${c.type.id}`).set(c.auth).expect(200)).body.data;
    expect(pros).toHaveLength(2);
    expect(pros[0].schedule[0]).toEqual({ unit_id: c.unit.id, weekday: 0, start: '08:00', end: '18:00' });

    const avail = await request(api.app).get(`/v1/appointments/availability?appointment_type_id=${c.type.id}&from=${day(2)}&to=${day(2)}`).set(c.auth);
    expect(avail.status).toBe(200);
    expect(avail.body.data.timezone).toBe('America/Manaus');
    const first = avail.body.data.items[0];
    // 08:00 in Manaus is 12:00Z (UTC−4, no daylight saving).
    expect(first).toMatchObject({ local: { date: day(2), time: '08:00', timezone: 'America/Manaus' }, unit_id: c.unit.id });
    expect(first.starts_at).toBe(`${day(2)}T12:00:00.000Z`);
    expect(first.professional_ids).toHaveLength(2);

    // The same key and body a second time replays the answer.
    const book = () =>
      request(api.app)
        .post('/v1/appointments')
        .set(c.auth)
        .set('Idempotency-Key', `book-${c.company.id}`)
        .send({ appointment_type_id: c.type.id, starts_at: first.starts_at, phone: '+5592988887777', name: 'Maria Souza', reminder_offsets_minutes: [1440, 60] });
    const booked = await book();
    expect(booked.status).toBe(201);
    const a = booked.body.data;
    expect(a).toMatchObject({ status: 'scheduled', starts_at: first.starts_at, local: { time: '08:00', timezone: 'America/Manaus' }, client: { name: 'Maria Souza', phone: '+5592988887777' } });
    expect(a.reminders).toHaveLength(2);
    expect(a.reminders.map((r: { offset_minutes: number }) => r.offset_minutes)).toEqual([1440, 60]);
    expect(a.history[0]).toMatchObject({ action: 'created' });
    const replay = await book();
    expect(replay.status).toBe(201);
    expect(replay.body.meta).toEqual({ idempotent_replay: true });
    expect(replay.body.data.id).toBe(a.id);
    const events = await api.database.db.selectFrom('domain_events').select(['event', 'data']).where('company_id', '=', c.company.id).where('event', '=', 'appointment.created').execute();
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ appointmentId: a.id, timezone: 'America/Manaus', unitId: c.unit.id, clientPhone: '+5592988887777' });
    // The booked professional's slot (with its 10-minute buffer) leaves the availability; the other one still offers it.
    const after = (await request(api.app).get(`/v1/appointments/availability?appointment_type_id=${c.type.id}&from=${day(2)}&to=${day(2)}`).set(c.auth)).body.data.items;
    expect(after[0].professional_ids).toEqual(first.professional_ids.filter((p: string) => p !== a.professional_id));
    expect(after[1].professional_ids).toEqual(first.professional_ids.filter((p: string) => p !== a.professional_id));
  });

  it("shows a contact's upcoming appointments in its 360 view, soonest first, and not the cancelled ones", async () => {
    const c = await clinic();
    const slots = (await request(api.app).get(`/v1/appointments/availability?appointment_type_id=${c.type.id}&from=${day(3)}&to=${day(3)}`).set(c.auth).expect(200)).body.data.items;
    const book = async (startsAt: string) =>
      (await request(api.app).post('/v1/appointments').set(c.auth).send({ appointment_type_id: c.type.id, starts_at: startsAt, phone: '+5592988880001', name: 'Rita' }).expect(201)).body.data;
    const later = await book(slots[4].starts_at);
    const sooner = await book(slots[0].starts_at);
    const cancelled = await book(slots[8].starts_at);
    await request(api.app).delete(`/v1/appointments/${cancelled.id}`).set(c.auth).send({ reason: 'não pode' }).expect(200);
    const reader = await api.createKey(c.company.id, { scopes: ['contacts:read'], mode: 'live', rpm: 100_000 });
    const contact = (await request(api.app).get(`/v1/contacts/${sooner.client.id}`).set({ Authorization: `Bearer ${reader}` }).expect(200)).body.data;
    expect(contact.upcoming_appointments.map((x: { id: string }) => x.id)).toEqual([sooner.id, later.id]);
    expect(contact.upcoming_appointments[0]).toMatchObject({ status: 'scheduled', starts_at: sooner.starts_at, local: { timezone: 'America/Manaus' } });
  });

  it('names the appointment type, professional and unit beside their ids in the item, the detail, the list and the 360 view', async () => {
    const c = await clinic();
    const slots = (await request(api.app).get(`/v1/appointments/availability?appointment_type_id=${c.type.id}&from=${day(4)}&to=${day(4)}`).set(c.auth).expect(200)).body.data.items;
    const booked = (await request(api.app).post('/v1/appointments').set(c.auth).send({ appointment_type_id: c.type.id, starts_at: slots[0].starts_at, phone: '+5592988880002', name: 'Júlia' }).expect(201)).body.data;
    const pro = c.pros.find((p: { id: string }) => p.id === booked.professional_id) as { id: string; name: string };
    const named = { appointment_type: { id: c.type.id, name: 'Consulta' }, professional: { id: pro.id, name: pro.name }, unit: { id: c.unit.id, name: 'Centro' } };
    expect(booked).toMatchObject({ ...named, appointment_type_id: c.type.id, professional_id: pro.id, unit_id: c.unit.id });
    expect((await request(api.app).get(`/v1/appointments/${booked.id}`).set(c.auth).expect(200)).body.data).toMatchObject(named);
    const listed = (await request(api.app).get(`/v1/appointments?from=${day(4)}&to=${day(4)}`).set(c.auth).expect(200)).body.data.items;
    expect(listed).toEqual([expect.objectContaining(named)]);
    const confirmed = (await request(api.app).patch(`/v1/appointments/${booked.id}`).set(c.auth).send({ status: 'confirmed' }).expect(200)).body.data;
    expect(confirmed).toMatchObject(named);
    const reader = await api.createKey(c.company.id, { scopes: ['contacts:read'], mode: 'live', rpm: 100_000 });
    const contact = (await request(api.app).get(`/v1/contacts/${booked.client.id}`).set({ Authorization: `Bearer ${reader}` }).expect(200)).body.data;
    expect(contact.upcoming_appointments[0]).toMatchObject(named);
  });

  it('50 concurrent bookings of one professional’s slot give exactly one 201; the others 409 SLOT_TAKEN with alternatives', async () => {
    const c = await clinic();
    const startsAt = `${day(3)}T14:00:00.000Z`; // 10:00 in Manaus
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        request(api.app)
          .post('/v1/appointments')
          .set(c.auth)
          .send({ appointment_type_id: c.type.id, starts_at: startsAt, professional_id: c.pros[0].id, phone: `+55929${String(80000000 + i)}` }),
      ),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    const conflict = answers.find((r) => r.status === 409)!.body.error;
    expect(conflict.code).toBe('SLOT_TAKEN');
    expect(conflict.details.conflict).toEqual({ starts_at: startsAt, ends_at: `${day(3)}T14:30:00.000Z` });
    expect(conflict.details.alternatives).toHaveLength(3);
    for (const alt of conflict.details.alternatives) {
      expect(new Date(alt.starts_at).getTime()).toBeGreaterThan(new Date(startsAt).getTime());
      expect(alt).toMatchObject({ unit_id: c.unit.id, local: { timezone: 'America/Manaus' }, professional_id: expect.any(String) });
    }
    const rows = await api.database.db.selectFrom('appointments').select('id').where('company_id', '=', c.company.id).execute();
    expect(rows).toHaveLength(1);
  }, 60_000);

  it('without professional_id books the least-booked free one; reschedule conflicts answer 409 APPOINTMENT_CONFLICT; confirm, attendance and cancel move the states', async () => {
    const c = await clinic();
    const at = `${day(4)}T15:00:00.000Z`;
    const book = (body: Record<string, unknown>) => request(api.app).post('/v1/appointments').set(c.auth).send({ appointment_type_id: c.type.id, phone: '+5592977776666', ...body });
    const one = (await book({ starts_at: at })).body.data;
    const two = (await book({ starts_at: at })).body.data;
    expect(two.professional_id).not.toBe(one.professional_id);
    const three = await book({ starts_at: at });
    expect(three.status).toBe(409);
    expect(three.body.error.code).toBe('SLOT_TAKEN');

    const other = (await book({ starts_at: `${day(4)}T17:00:00.000Z`, professional_id: one.professional_id })).body.data;
    const clash = await request(api.app).patch(`/v1/appointments/${other.id}`).set(c.auth).send({ starts_at: `${day(4)}T15:20:00.000Z` });
    expect(clash.status).toBe(409);
    expect(clash.body.error).toMatchObject({ code: 'APPOINTMENT_CONFLICT', details: { alternatives: expect.any(Array) } });
    const moved = await request(api.app).patch(`/v1/appointments/${other.id}`).set(c.auth).send({ starts_at: `${day(5)}T15:00:00.000Z` });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({ status: 'scheduled', starts_at: `${day(5)}T15:00:00.000Z` });
    expect(moved.body.data.reminders.filter((r: { status: string }) => r.status === 'cancelled').length).toBeGreaterThan(0);
    const rescheduled = await api.database.db.selectFrom('domain_events').select('data').where('company_id', '=', c.company.id).where('event', '=', 'appointment.rescheduled').execute();
    expect(rescheduled[0]!.data).toMatchObject({ appointmentId: other.id, previousStartsAt: `${day(4)}T17:00:00.000Z` });

    const confirmed = await request(api.app).patch(`/v1/appointments/${one.id}`).set(c.auth).send({ status: 'confirmed' });
    expect(confirmed.body.data.status).toBe('confirmed');
    const early = await request(api.app).patch(`/v1/appointments/${one.id}`).set(c.auth).send({ attendance: 'attended' });
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('INVALID_TRANSITION');

    const cancelled = await request(api.app).delete(`/v1/appointments/${one.id}`).set(c.auth).send({ reason: 'Paciente desmarcou' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ id: one.id, status: 'cancelled', reminders_cancelled: 2 });
    const again = await request(api.app).delete(`/v1/appointments/${one.id}`).set(c.auth);
    expect(again.status).toBe(200);
    const detail = (await request(api.app).get(`/v1/appointments/${one.id}`).set(c.auth)).body.data;
    expect(detail.reminders.every((r: { status: string }) => r.status === 'cancelled')).toBe(true);
    const ev = await api.database.db.selectFrom('domain_events').select('data').where('company_id', '=', c.company.id).where('event', '=', 'appointment.cancelled').execute();
    expect(ev).toHaveLength(1);
    expect(ev[0]!.data).toMatchObject({ appointmentId: one.id, reason: 'Paciente desmarcou', cancelledBy: 'api' });
    // The freed slot can be booked again.
    expect((await book({ starts_at: at, professional_id: one.professional_id })).status).toBe(201);
    // Lists: by start with a cursor; cancelled ones only when asked.
    const page1 = (await request(api.app).get(`/v1/appointments?from=${day(0)}&to=${day(10)}&limit=2`).set(c.auth)).body.data;
    expect(page1.items).toHaveLength(2);
    const page2 = (await request(api.app).get(`/v1/appointments?from=${day(0)}&to=${day(10)}&limit=2&cursor=${page1.next_cursor}`).set(c.auth)).body.data;
    expect(page2.items.length).toBeGreaterThan(0);
    expect(page2.items[0].starts_at >= page1.items[1].starts_at).toBe(true);
    const cancelledList = (await request(api.app).get(`/v1/appointments?from=${day(0)}&to=${day(10)}&status=cancelled`).set(c.auth)).body.data.items;
    expect(cancelledList.map((x: { id: string }) => x.id)).toEqual([one.id]);
  }, 30_000);

  it('answers the 422 reasons, a block over an appointment is 409, and 404s for unknown references', async () => {
    const c = await clinic();
    const book = (body: Record<string, unknown>) => request(api.app).post('/v1/appointments').set(c.auth).send({ appointment_type_id: c.type.id, phone: '+5592966665555', ...body });
    const outside = await book({ starts_at: `${day(3)}T02:00:00.000Z` });
    expect(outside.status).toBe(422);
    expect(outside.body.error.details.reason).toBe('outside_working_hours');
    expect((await book({ starts_at: new Date(Date.now() + 10 * 60_000).toISOString() })).body.error.details.reason).toBe('min_notice');
    expect((await book({ starts_at: `${day(40)}T14:00:00.000Z` })).body.error.details.reason).toBe('max_advance');
    expect((await book({ starts_at: `${day(3)}T14:00:00.000Z`, appointment_type_id: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    expect((await book({ starts_at: 'tomorrow' })).status).toBe(400);
    const booked = (await book({ starts_at: `${day(3)}T14:00:00.000Z`, professional_id: c.pros[1].id })).body.data;
    const block = await request(api.app)
      .post(`/admin/v1/professionals/${c.pros[1].id}/blocks`)
      .set(api.adminAuth)
      .send({ starts_at: `${day(3)}T13:00:00.000Z`, ends_at: `${day(3)}T16:00:00.000Z`, reason: 'Congresso' });
    expect(block.status).toBe(409);
    const free = await request(api.app).post(`/admin/v1/professionals/${c.pros[1].id}/blocks`).set(api.adminAuth).send({ starts_at: `${day(6)}T13:00:00.000Z`, ends_at: `${day(6)}T16:00:00.000Z` });
    expect(free.status).toBe(201);
    const blocked = (await request(api.app).get(`/v1/appointments/availability?appointment_type_id=${c.type.id}&from=${day(6)}&to=${day(6)}&professional_id=${c.pros[1].id}`).set(c.auth)).body.data.items;
    expect(blocked.length).toBeGreaterThan(0);
    // The block and the type's 10-minute buffer after each slot: nothing from 12:30Z (ending 13:10 with its buffer) to 16:00Z.
    expect(blocked.every((s: { starts_at: string }) => s.starts_at < `${day(6)}T12:30:00.000Z` || s.starts_at >= `${day(6)}T16:00:00.000Z`)).toBe(true);
    expect(booked.id).toEqual(expect.any(String));
    expect((await request(api.app).get(`/v1/appointments/availability?appointment_type_id=${c.type.id}&from=${day(1)}&to=${day(40)}`).set(c.auth)).status).toBe(400);
  }, 30_000);

  it('keeps tenants apart and checks scopes', async () => {
    const a = await clinic();
    const b = await clinic();
    const booked = (await request(api.app).post('/v1/appointments').set(a.auth).send({ appointment_type_id: a.type.id, starts_at: `${day(3)}T14:00:00.000Z`, phone: '+5592955554444' })).body.data;
    expect((await request(api.app).get(`/v1/appointments/${booked.id}`).set(b.auth)).status).toBe(404);
    expect((await request(api.app).delete(`/v1/appointments/${booked.id}`).set(b.auth)).status).toBe(404);
    expect((await request(api.app).post('/v1/appointments').set(b.auth).send({ appointment_type_id: a.type.id, starts_at: `${day(3)}T14:00:00.000Z`, phone: '+5592955554444' })).status).toBe(404);
    expect((await request(api.app).get('/v1/units').set(b.auth)).body.data.map((u: { id: string }) => u.id)).toEqual([b.unit.id]);
    const readOnly = await api.createKey(a.company.id, { scopes: ['appointments:read'], mode: 'live' });
    const denied = await request(api.app).post('/v1/appointments').set('Authorization', `Bearer ${readOnly}`).send({ appointment_type_id: a.type.id, starts_at: `${day(3)}T15:00:00.000Z`, phone: '+5592955554444' });
    expect(denied.status).toBe(403);
    expect((await request(api.app).get('/v1/appointments').set('Authorization', `Bearer ${readOnly}`)).status).toBe(200);
    expect((await request(api.app).get('/v1/scheduled-messages').set('Authorization', `Bearer ${readOnly}`)).status).toBe(403);
  });

  it('books with a ticket_id of the company; an unknown or another company’s ticket is 404 and nothing is booked', async () => {
    const a = await clinic();
    const b = await clinic();
    const inbound = await request(api.app).post('/admin/v1/simulator/inbound').set(api.adminAuth).send({ setor_id: a.setor.id, from: '+5592955554401', text: 'Oi' }).expect(201);
    const ticketId = inbound.body.data.ticket_id as string;
    const book = (c: typeof a, body: Record<string, unknown>) =>
      request(api.app).post('/v1/appointments').set(c.auth).send({ appointment_type_id: c.type.id, starts_at: `${day(3)}T14:00:00.000Z`, phone: '+5592955554401', ...body });
    const foreign = await book(b, { ticket_id: ticketId });
    expect([foreign.status, foreign.body.error?.code, foreign.body.error?.details]).toEqual([404, 'NOT_FOUND', { ticket_id: ticketId }]);
    expect((await book(a, { ticket_id: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    expect((await request(api.app).get(`/v1/appointments?from=${day(3)}&to=${day(3)}&status=scheduled`).set(b.auth)).body.data.items).toEqual([]);
    const booked = await book(a, { ticket_id: ticketId });
    expect([booked.status, booked.body.data.ticket_id]).toEqual([201, ticketId]);
  });

  it('refuses a booking past the monthly quota with 402 PLAN_LIMIT_REACHED (live keys only)', async () => {
    const c = await clinic({ plan_code: 'trial' });
    const starts = (i: number) => new Date(Date.parse(`${day(2)}T12:00:00.000Z`) + i * 30 * 60_000);
    // Fill the trial's 50 with direct rows (the quota counts the company's live appointments in the start's month).
    const month = starts(0);
    const existing = await api.database.db.selectFrom('appointments').select('id').where('company_id', '=', c.company.id).execute();
    expect(existing).toHaveLength(0);
    const contact = (await request(api.app).post('/v1/appointments').set(c.auth).send({ appointment_type_id: c.type.id, starts_at: month.toISOString(), phone: '+5592944443333', allow_outside_hours: true })).body.data;
    await api.database.db
      .insertInto('appointments')
      .values(
        Array.from({ length: 49 }, (_, i) => ({
          id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
          company_id: c.company.id,
          appointment_type_id: c.type.id,
          professional_id: c.pros[1].id,
          unit_id: c.unit.id,
          client_id: contact.client.id,
          client_name: null,
          client_phone: '+5592944443333',
          starts_at: month,
          ends_at: month,
          timezone: 'America/Manaus',
          status: 'scheduled',
          description: null,
          ticket_id: null,
          setor_id: null,
          key_mode: 'live',
          confirmed_at: null,
          cancelled_at: null,
          cancel_reason: null,
          cancelled_by: null,
          history: '[]',
          created_at: month,
          updated_at: month,
        })),
      )
      .execute();
    const over = await request(api.app).post('/v1/appointments').set(c.auth).send({ appointment_type_id: c.type.id, starts_at: starts(4).toISOString(), phone: '+5592944443333' });
    expect(over.status).toBe(402);
    expect(over.body.error).toMatchObject({ code: 'PLAN_LIMIT_REACHED', details: { quota: 'appointments_per_month', limit: 50, used: 50, resets_at: expect.any(String) } });
    const testKey = await api.createKey(c.company.id, { scopes: ['appointments:write'], mode: 'test' });
    expect((await request(api.app).post('/v1/appointments').set('Authorization', `Bearer ${testKey}`).send({ appointment_type_id: c.type.id, starts_at: starts(4).toISOString(), phone: '+5592944443333' })).status).toBe(201);
  });
});

describe('the operator’s scheduling catalogue over HTTP', () => {
  it('validates units, schedules, services and types, and the reminder offsets fall back request → type → company → default', async () => {
    const c = await clinic();
    const post = (path: string, body: unknown) => request(api.app).post(c.admin(path)).set(api.adminAuth).send(body as object);
    expect((await post('/units', { name: 'X', timezone: 'Mars/Olympus' })).body.error).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect((await request(api.app).post('/admin/v1/companies/00000000-0000-4000-8000-000000000000/units').set(api.adminAuth).send({ name: 'X', timezone: 'UTC' })).status).toBe(404);
    expect((await request(api.app).post('/admin/v1/companies/not-a-uuid/units').set(api.adminAuth).send({ name: 'X', timezone: 'UTC' })).status).toBe(400);
    const overlapping = [
      { unit_id: c.unit.id, weekday: 1, start: '08:00', end: '12:00' },
      { unit_id: c.unit.id, weekday: 1, start: '11:00', end: '14:00' },
    ];
    const pro = c.pros[0];
    const schedule = await request(api.app).put(`/admin/v1/professionals/${pro.id}/schedule`).set(api.adminAuth).send({ schedule: overlapping });
    expect([schedule.status, schedule.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
    const other = (await post('/units', { name: 'Sul', timezone: 'America/Noronha' })).body.data;
    const services = await request(api.app).put(`/admin/v1/professionals/${pro.id}/services`).set(api.adminAuth).send({ services: [{ appointment_type_id: c.type.id, unit_id: other.id }] });
    expect(services.status).toBe(400);
    const unitPatch = await request(api.app).patch(`/admin/v1/units/${other.id}`).set(api.adminAuth).send({ open_on_holidays: true, address: { uf: 'pe' } });
    expect(unitPatch.body.data).toMatchObject({ open_on_holidays: true, timezone: 'America/Noronha', address: { uf: 'PE' } });
    expect((await request(api.app).patch(`/admin/v1/appointment-types/${c.type.id}`).set(api.adminAuth).send({ duration_minutes: 2 })).status).toBe(400);

    const book = async (i: number, extra: Record<string, unknown> = {}) =>
      (await request(api.app).post('/v1/appointments').set(c.auth).send({ appointment_type_id: c.type.id, starts_at: `${day(5)}T${String(12 + i).padStart(2, '0')}:00:00.000Z`, phone: '+5592922221111', ...extra })).body.data;
    const offsetsOf = (a: { reminders: { offset_minutes: number }[] }) => a.reminders.map((r) => r.offset_minutes);
    expect(offsetsOf(await book(0))).toEqual([1440, 120]);
    const saved = await request(api.app).put(c.admin('/reminder-settings')).set(api.adminAuth).send({ reminder_offsets_minutes: [30, 180] });
    expect(saved.body.data).toEqual({ reminder_offsets_minutes: [180, 30], reminder_text: null, effective_reminder_offsets_minutes: [180, 30] });
    expect(offsetsOf(await book(1))).toEqual([180, 30]);
    await request(api.app).patch(`/admin/v1/appointment-types/${c.type.id}`).set(api.adminAuth).send({ reminder_offsets_minutes: [45] }).expect(200);
    expect(offsetsOf(await book(2))).toEqual([45]);
    expect(offsetsOf(await book(3, { reminder_offsets_minutes: [15, 600] }))).toEqual([600, 15]);
    const tooShort = await request(api.app).post('/v1/appointments').set(c.auth).send({ appointment_type_id: c.type.id, starts_at: `${day(5)}T17:00:00.000Z`, phone: '+5592922221111', reminder_offsets_minutes: [5] });
    expect(tooShort.status).toBe(400);
  });
});

describe('the operator’s scheduling catalogue by id (business.md §8 paths)', () => {
  it('patches units, professionals and types by id, replaces schedule and services, blocks time (409 over an appointment); unknown id 404, malformed 400', async () => {
    const c = await clinic();
    const adm = (method: 'patch' | 'put' | 'post', path: string, body: object) => request(api.app)[method](`/admin/v1${path}`).set(api.adminAuth).send(body);
    const unit = await adm('patch', `/units/${c.unit.id}`, { open_on_holidays: true, address: { uf: 'am' } });
    expect([unit.status, unit.body.data]).toEqual([200, expect.objectContaining({ id: c.unit.id, open_on_holidays: true, address: expect.objectContaining({ uf: 'AM' }) })]);
    const type = await adm('patch', `/appointment-types/${c.type.id}`, { price: 120 });
    expect([type.status, type.body.data.id, type.body.data.price]).toEqual([200, c.type.id, 120]);
    expect((await adm('patch', `/appointment-types/${c.type.id}`, { duration_minutes: 2 })).status).toBe(400);
    const pro = c.pros[0];
    const renamed = await adm('patch', `/professionals/${pro.id}`, { name: 'Dr. Bruno' });
    expect([renamed.status, renamed.body.data.name]).toEqual([200, 'Dr. Bruno']);
    const week = [1, 2, 3].map((weekday) => ({ unit_id: c.unit.id, weekday, start: '08:00', end: '12:00' }));
    const sched = await adm('put', `/professionals/${pro.id}/schedule`, { schedule: week });
    expect([sched.status, sched.body.data.schedule.length]).toEqual([200, 3]);
    const overlapping = await adm('put', `/professionals/${pro.id}/schedule`, { schedule: [...week, { unit_id: c.unit.id, weekday: 1, start: '11:00', end: '13:00' }] });
    expect(overlapping.status).toBe(400);
    const svc = await adm('put', `/professionals/${pro.id}/services`, { services: [{ appointment_type_id: c.type.id, unit_id: c.unit.id }] });
    expect([svc.status, svc.body.data.services]).toEqual([200, [{ appointment_type_id: c.type.id, unit_id: c.unit.id }]]);
    const other = c.pros[1];
    const booked = (await request(api.app).post('/v1/appointments').set(c.auth).send({ appointment_type_id: c.type.id, phone: '+5592966665554', starts_at: `${day(3)}T14:00:00.000Z`, professional_id: other.id })).body.data;
    expect(booked.id).toEqual(expect.any(String));
    const over = await adm('post', `/professionals/${other.id}/blocks`, { starts_at: `${day(3)}T13:00:00.000Z`, ends_at: `${day(3)}T16:00:00.000Z` });
    expect(over.status).toBe(409);
    const free = await adm('post', `/professionals/${other.id}/blocks`, { starts_at: `${day(7)}T13:00:00.000Z`, ends_at: `${day(7)}T16:00:00.000Z`, reason: 'Congresso' });
    expect([free.status, free.body.data.professional_id, free.body.data.reason]).toEqual([201, other.id, 'Congresso']);
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const [method, path, body] of [
      ['patch', `/units/${unknown}`, { active: false }],
      ['patch', `/professionals/${unknown}`, { active: false }],
      ['put', `/professionals/${unknown}/schedule`, { schedule: [] }],
      ['put', `/professionals/${unknown}/services`, { services: [] }],
      ['post', `/professionals/${unknown}/blocks`, { starts_at: `${day(8)}T13:00:00.000Z`, ends_at: `${day(8)}T14:00:00.000Z` }],
      ['patch', `/appointment-types/${unknown}`, { active: false }],
    ] as const) {
      expect([path, (await adm(method, path, body)).status]).toEqual([path, 404]);
      expect([path, (await adm(method, path.replace(unknown, 'not-a-uuid'), body)).status]).toEqual([path, 400]);
    }
    // Another company's unit is found by its own id, never through the wrong company.
    expect((await request(api.app).patch(`/admin/v1/companies/${unknown}/units/${c.unit.id}`).set(api.adminAuth).send({ active: true })).status).toBe(404);
  }, 30_000);
});

describe('scheduled messages over HTTP', () => {
  it('creates, reads, lists and cancels; send_at bounds, safe hours, 404 box and 402 pending quota', async () => {
    const c = await clinic({ plan_code: 'trial', safe_hours: { start: 8, end: 20 } });
    const create = (body: Record<string, unknown>) => request(api.app).post('/v1/scheduled-messages').set(c.auth).send({ phone: '+5592933332222', text: 'Oi {{primeiro_nome}}', ...body });
    const tooSoon = await create({ send_at: new Date(Date.now() + 30_000).toISOString() });
    expect(tooSoon.status).toBe(400);
    expect((await create({ send_at: new Date(Date.now() + 91 * 86_400_000).toISOString() })).status).toBe(400);
    expect((await create({ send_at: '2030-01-01T10:00:00' })).status).toBe(400);
    expect((await create({ send_at: new Date(Date.now() + 3_600_000).toISOString(), setor_id: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    // 03:00 in São Paulo (the company's zone) is outside 08-20: moved to 08:00.
    const night = `${day(2)}T06:00:00.000Z`;
    const created = await create({ send_at: night, name: 'Rita' });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      status: 'scheduled',
      send_at: night,
      effective_send_at: `${day(2)}T11:00:00.000Z`,
      waiting_reason: 'outside_safe_hours',
      client: { name: 'Rita', phone: '+5592933332222' },
      setor_id: c.setor.id,
      text: 'Oi {{primeiro_nome}}',
      media: null,
    });
    const id = created.body.data.id;
    expect((await request(api.app).get(`/v1/scheduled-messages/${id}`).set(c.auth)).body.data).toEqual(created.body.data);
    const list = (await request(api.app).get('/v1/scheduled-messages?status=scheduled').set(c.auth)).body.data;
    expect(list).toMatchObject({ total: 1, items: [{ id }] });
    const cancelled = await request(api.app).delete(`/v1/scheduled-messages/${id}`).set(c.auth);
    expect(cancelled.body.data).toEqual({ id, status: 'cancelled', cancelled_at: expect.any(String) });
    expect((await request(api.app).delete(`/v1/scheduled-messages/${id}`).set(c.auth)).body.data).toEqual(cancelled.body.data);
    for (let i = 0; i < 20; i += 1) expect((await create({ send_at: new Date(Date.now() + 3_600_000).toISOString() })).status).toBe(201);
    const over = await create({ send_at: new Date(Date.now() + 3_600_000).toISOString() });
    expect(over.status).toBe(402);
    expect(over.body.error).toMatchObject({ code: 'PLAN_LIMIT_REACHED', details: { quota: 'scheduled_messages_pending', limit: 20, used: 20, resets_at: null } });
    const limitsKey = await api.createKey(c.company.id, { scopes: ['credits:read'], mode: 'live' });
    const limits = (await request(api.app).get('/v1/limits').set('Authorization', `Bearer ${limitsKey}`)).body.data;
    expect(limits.quotas.scheduled_messages_pending).toEqual({ limit: 20, used: 20, remaining: 0, resets_at: null });
    expect(limits.quotas.appointments_per_month).toMatchObject({ limit: 50, used: 0, remaining: 50, resets_at: expect.any(String) });
    expect(limits.quotas.contracts_per_month).toMatchObject({ limit: 5 });
    expect(limits.quotas.lead_searches_per_day).toMatchObject({ limit: 2 });
    const other = await clinic();
    expect((await request(api.app).get(`/v1/scheduled-messages/${id}`).set(other.auth)).status).toBe(404);
    expect((await request(api.app).delete(`/v1/scheduled-messages/${id}`).set(other.auth)).status).toBe(404);
  }, 30_000);
});
