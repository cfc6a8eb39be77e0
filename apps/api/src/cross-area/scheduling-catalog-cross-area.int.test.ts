import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestApi, type TestApi } from '../testing/test-api.js';

// The scheduling catalogue changed (deactivated) while appointments use it, and contact merges meeting appointments.

let api: TestApi;
beforeAll(async () => {
  api = await createTestApi();
});
afterAll(() => api.close());

const everyDay = (unitId: string) => [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ unit_id: unitId, weekday, start: '00:00', end: '23:59' }));
const at = (days: number, hour: number) => {
  const d = new Date(Date.now() + days * 86_400_000);
  d.setUTCHours(hour, 0, 0, 0);
  return d.toISOString();
};

/** A company with a connected box, two units (São Paulo), one type offered at both and two professionals working always at both. */
async function clinic() {
  const company = await api.createCompany({ safe_hours: { start: 0, end: 24 }, company_rpm: 100_000 });
  const setor = await api.createSetor(company.id);
  await api.connectSetor(company.id, setor.id);
  const admin = (method: 'post' | 'patch', path: string, body: object) => request(api.app)[method](path).set(api.adminAuth).send(body);
  const address = { street: 'Rua A', number: '1', district: 'Centro', city: 'São Paulo', uf: 'SP', postal_code: '01001-000', ibge_code: '3550308' };
  const units = [];
  for (const name of ['Centro', 'Norte']) {
    units.push((await admin('post', `/admin/v1/companies/${company.id}/units`, { name, timezone: 'America/Sao_Paulo', open_on_holidays: true, address }).expect(201)).body.data);
  }
  const type = (
    await admin('post', `/admin/v1/companies/${company.id}/appointment-types`, { name: 'Consulta', duration_minutes: 30, min_notice_minutes: 60, max_advance_days: 30, unit_ids: units.map((u) => u.id) }).expect(201)
  ).body.data;
  const pros = [];
  for (const name of ['Dra. Ana', 'Dr. Bruno']) {
    pros.push(
      (
        await admin('post', `/admin/v1/companies/${company.id}/professionals`, {
          name,
          schedule: units.flatMap((u) => everyDay(u.id)),
          services: units.map((u) => ({ appointment_type_id: type.id, unit_id: u.id })),
        }).expect(201)
      ).body.data,
    );
  }
  const key = await api.createKey(company.id, { rpm: 100_000 });
  const auth = { Authorization: `Bearer ${key}` };
  const book = (body: object) => request(api.app).post('/v1/appointments').set(auth).send({ appointment_type_id: type.id, ...body });
  return { company, setor, units, type, pros, auth, admin, book };
}

describe('a professional or unit deactivated with future appointments', () => {
  it('keeps the appointment and its reminders; a reschedule with the deactivated professional is refused as not enabled, with another one it goes', async () => {
    const c = await clinic();
    const booked = (await c.book({ starts_at: at(3, 14), phone: '+5511987652001', professional_id: c.pros[0].id, unit_id: c.units[0].id, reminder_offsets_minutes: [60] }).expect(201)).body.data;
    await c.admin('patch', `/admin/v1/professionals/${c.pros[0].id}`, { active: false }).expect(200);

    const kept = (await request(api.app).get(`/v1/appointments/${booked.id}`).set(c.auth).expect(200)).body.data;
    expect(kept).toMatchObject({ status: 'scheduled', professional: { id: c.pros[0].id } });
    expect(kept.reminders.map((r: { status: string }) => r.status)).toEqual(['scheduled']);
    const refused = await request(api.app).patch(`/v1/appointments/${booked.id}`).set(c.auth).send({ starts_at: at(4, 14) }).expect(422);
    expect(refused.body.error.details).toMatchObject({ reason: 'not_enabled' });
    const moved = (await request(api.app).patch(`/v1/appointments/${booked.id}`).set(c.auth).send({ starts_at: at(4, 14), professional_id: c.pros[1].id }).expect(200)).body.data;
    expect(moved.professional.id).toBe(c.pros[1].id);
  });

  it('a deactivated unit is not bookable, named or not, as availability says', async () => {
    const c = await clinic();
    const booked = (await c.book({ starts_at: at(3, 15), phone: '+5511987652002', unit_id: c.units[1].id }).expect(201)).body.data;
    await c.admin('patch', `/admin/v1/units/${c.units[1].id}`, { active: false }).expect(200);

    const day = at(5, 12).slice(0, 10);
    const avail = await request(api.app).get(`/v1/appointments/availability?appointment_type_id=${c.type.id}&unit_id=${c.units[1].id}&from=${day}&to=${day}`).set(c.auth);
    expect(avail.status).toBe(200);
    expect(avail.body.data.items).toEqual([]);
    const named = await c.book({ starts_at: at(5, 15), phone: '+5511987652003', unit_id: c.units[1].id }).expect(422);
    expect(named.body.error.details).toMatchObject({ reason: 'not_enabled' });
    const reschedule = await request(api.app).patch(`/v1/appointments/${booked.id}`).set(c.auth).send({ starts_at: at(4, 15) }).expect(422);
    expect(reschedule.body.error.details).toMatchObject({ reason: 'not_enabled' });
    expect((await request(api.app).get(`/v1/appointments/${booked.id}`).set(c.auth).expect(200)).body.data.status).toBe('scheduled');
    await request(api.app).patch(`/v1/appointments/${booked.id}`).set(c.auth).send({ starts_at: at(4, 15), unit_id: c.units[0].id }).expect(200);
  });
});

describe('an appointment type deactivated with future appointments', () => {
  it('takes no new bookings, while its booked appointments keep their reminders and may still be moved or cancelled', async () => {
    const c = await clinic();
    const booked = (await c.book({ starts_at: at(3, 17), phone: '+5511987652201', unit_id: c.units[0].id, reminder_offsets_minutes: [60] }).expect(201)).body.data;
    await c.admin('patch', `/admin/v1/appointment-types/${c.type.id}`, { active: false }).expect(200);

    await c.book({ starts_at: at(5, 17), phone: '+5511987652202', unit_id: c.units[0].id }).expect(404);
    const moved = (await request(api.app).patch(`/v1/appointments/${booked.id}`).set(c.auth).send({ starts_at: at(4, 17) }).expect(200)).body.data;
    expect(moved.reminders.filter((r: { status: string }) => r.status === 'scheduled')).toHaveLength(1);
    await request(api.app).delete(`/v1/appointments/${booked.id}`).set(c.auth).expect(200);
  });
});

describe('contact merge meets appointments', () => {
  it('the merged contact appointment, with its reminder queued, is the survivor one', async () => {
    const c = await clinic();
    const survivor = (await request(api.app).post('/v1/contacts').set(c.auth).send({ phone: '+5511987652101', name: 'Ana' }).expect(201)).body.data;
    const booked = (await c.book({ starts_at: at(3, 16), phone: '+5511987652102', name: 'Bia', unit_id: c.units[0].id, reminder_offsets_minutes: [60] }).expect(201)).body.data;

    await request(api.app).post(`/v1/contacts/${survivor.id}/merge`).set(c.auth).send({ merge_contact_id: booked.client.id }).expect(200);

    const listed = (await request(api.app).get(`/v1/appointments?client_id=${survivor.id}`).set(c.auth).expect(200)).body.data.items;
    expect(listed.map((a: { id: string }) => a.id)).toEqual([booked.id]);
    const detail = (await request(api.app).get(`/v1/appointments/${booked.id}`).set(c.auth).expect(200)).body.data;
    expect(detail.client.id).toBe(survivor.id);
    expect(detail.reminders.map((r: { status: string }) => r.status)).toEqual(['scheduled']);
    const contact = (await request(api.app).get(`/v1/contacts/${survivor.id}`).set(c.auth).expect(200)).body.data;
    expect(contact.upcoming_appointments.map((a: { id: string }) => a.id)).toEqual([booked.id]);
  });
});
