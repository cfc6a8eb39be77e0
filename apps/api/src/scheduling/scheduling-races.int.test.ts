import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sql } from 'kysely';
import request from 'supertest';
import { countOf, expectOneIdempotentEffect, sortedStatuses } from '../testing/races.js';
import { createClinic } from '../testing/clinic-fixtures.js';
import { createTestApi, type TestApi } from '../testing/test-api.js';

/**
 * Concurrent scheduling writes (business.md §1-2: no double booking by an exclusion constraint, reschedule and cancel
 * of one appointment, cancel of a scheduled message is a compare-and-set, pending quota): one effect, the documented
 * answers for the others, no 500, no busy time left behind.
 */
let api: TestApi;
beforeAll(async () => {
  api = await createTestApi();
});
afterAll(() => api.close());

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
let phoneSeq = 0;
const nextPhone = () => `+55929${String(70000500 + ++phoneSeq)}`;

/** The clinic fixture without buffer time (back-to-back slots), with a helper booking one professional's slot. */
async function clinic(settings: Record<string, unknown> = {}) {
  const c = await createClinic(api, { settings: { company_rpm: 100_000, ...settings }, type: { buffer_after_minutes: 0, price: 100 } });
  const book = async (startsAt: string, professionalId = c.pros[0]!.id as string) => {
    const res = await request(api.app).post('/v1/appointments').set(c.auth).send({ appointment_type_id: c.type.id, starts_at: startsAt, professional_id: professionalId, phone: nextPhone() });
    expect(res.status).toBe(201);
    return res.body.data as { id: string; professional_id: string };
  };
  return { ...c, book };
}

/** Busy rows of appointments that are not live (cancelled, or gone): none may exist. */
const strayBusy = (companyId: string) =>
  countOf(api, sql`SELECT count(*) AS n FROM scheduling_busy b JOIN appointments a ON a.id = b.appointment_id WHERE a.company_id = ${companyId} AND a.status = 'cancelled'`);

describe('appointments under concurrent writes', () => {
  it('fifteen appointments moved to one professional slot: one 200, fourteen 409 APPOINTMENT_CONFLICT, the others keep their time', async () => {
    const c = await clinic();
    const appointments = [];
    for (let i = 0; i < 15; i += 1) appointments.push(await c.book(`${day(3)}T${String(12 + Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}:00.000Z`));
    const target = `${day(4)}T14:00:00.000Z`;
    const answers = await Promise.all(appointments.map((a) => request(api.app).patch(`/v1/appointments/${a.id}`).set(c.auth).send({ starts_at: target, professional_id: c.pros[0]!.id })));
    expect(sortedStatuses(answers)).toEqual([200, ...Array<number>(14).fill(409)]);
    for (const a of answers.filter((x) => x.status === 409)) expect(a.body.error.code).toBe('APPOINTMENT_CONFLICT');
    expect(await countOf(api, sql`SELECT count(*) AS n FROM appointments WHERE company_id = ${c.company.id} AND starts_at = ${new Date(target)}`)).toBe(1);
    expect(await countOf(api, sql`SELECT count(*) AS n FROM scheduling_busy WHERE professional_id = ${c.pros[0]!.id}`)).toBe(15);
  });

  it('reschedules and cancels of one appointment at once: both cancels answer 200, it ends cancelled with no busy time and no pending reminder', async () => {
    const c = await clinic();
    for (let round = 0; round < 4; round += 1) {
      const a = await c.book(`${day(5)}T${12 + round}:00:00.000Z`);
      const answers = await Promise.all([
        ...[0, 1, 2].map((i) => request(api.app).patch(`/v1/appointments/${a.id}`).set(c.auth).send({ starts_at: `${day(6)}T${12 + round}:${['00', '30'][i % 2]}:00.000Z`, professional_id: c.pros[i % 2]!.id })),
        request(api.app).delete(`/v1/appointments/${a.id}`).set(c.auth).send({ reason: 'corrida' }),
        request(api.app).delete(`/v1/appointments/${a.id}`).set(c.auth).send({ reason: 'corrida' }),
      ]);
      for (const x of answers) expect([200, 409]).toContain(x.status);
      expect(sortedStatuses(answers.slice(3))).toEqual([200, 200]);
      const detail = (await request(api.app).get(`/v1/appointments/${a.id}`).set(c.auth)).body.data;
      expect(detail.status).toBe('cancelled');
      expect(await countOf(api, sql`SELECT count(*) AS n FROM scheduling_busy WHERE appointment_id = ${a.id}`)).toBe(0);
      expect(await countOf(api, sql`SELECT count(*) AS n FROM scheduled_messages WHERE appointment_id = ${a.id} AND status IN ('scheduled', 'waiting')`)).toBe(0);
    }
    expect(await strayBusy(c.company.id)).toBe(0);
  });

  it('ten bookings of one time without a professional: one per professional, the others 409 SLOT_TAKEN', async () => {
    const c = await clinic();
    const startsAt = `${day(7)}T13:00:00.000Z`;
    const answers = await Promise.all(Array.from({ length: 10 }, () => request(api.app).post('/v1/appointments').set(c.auth).send({ appointment_type_id: c.type.id, starts_at: startsAt, phone: nextPhone() })));
    expect(sortedStatuses(answers)).toEqual([201, 201, ...Array<number>(8).fill(409)]);
    expect(new Set(answers.filter((a) => a.status === 201).map((a) => a.body.data.professional_id)).size).toBe(2);
  });

  it('fifteen bookings at once on a trial company with 45 of its 50 a month: five are booked, ten 402 PLAN_LIMIT_REACHED', async () => {
    const c = await clinic({ plan_code: 'trial' });
    const month = day(2).slice(0, 7);
    // 45 live appointments of this month written straight to the table (a company near its quota without 45 bookings).
    await sql`
      INSERT INTO appointments (id, company_id, appointment_type_id, professional_id, unit_id, client_id, client_phone, starts_at, ends_at, timezone, status, key_mode, history, created_at, updated_at)
      SELECT gen_random_uuid(), ${c.company.id}, ${c.type.id}, ${c.pros[1]!.id}, ${c.unit.id}, gen_random_uuid(), '+5592900000000',
             ${month + '-01T12:00:00Z'}::timestamptz, ${month + '-01T12:30:00Z'}::timestamptz, 'America/Manaus', 'scheduled', 'live', '[]'::jsonb, now(), now()
      FROM generate_series(1, 45)`.execute(api.database.db);
    const slots = Array.from({ length: 15 }, (_, i) => `${day(2)}T${String(12 + Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}:00.000Z`);
    const answers = await Promise.all(slots.map((s) => request(api.app).post('/v1/appointments').set(c.auth).send({ appointment_type_id: c.type.id, starts_at: s, professional_id: c.pros[0]!.id, phone: nextPhone() })));
    expect(sortedStatuses(answers)).toEqual([...Array<number>(5).fill(201), ...Array<number>(10).fill(402)]);
    for (const a of answers.filter((x) => x.status === 402)) expect(a.body.error.code).toBe('PLAN_LIMIT_REACHED');
  });
});

describe('the catalogue under concurrent operator writes', () => {
  it('edits of different fields of one professional, unit and type at once: every change lands', async () => {
    const c = await clinic();
    for (let round = 0; round < 4; round += 1) {
      const pro = c.pros[round % 2]!;
      const schedule = [{ unit_id: c.unit.id, weekday: 1, start: '09:00', end: `1${round}:00` }];
      const answers = await Promise.all([
        request(api.app).patch(`/admin/v1/professionals/${pro.id}`).set(api.adminAuth).send({ name: `Dra. ${round}` }),
        request(api.app).put(`/admin/v1/professionals/${pro.id}/schedule`).set(api.adminAuth).send({ schedule }),
        request(api.app).put(`/admin/v1/professionals/${pro.id}/services`).set(api.adminAuth).send({ services: [] }),
        request(api.app).patch(`/admin/v1/professionals/${pro.id}`).set(api.adminAuth).send({ phone: `+5592988${String(770000 + round)}` }),
        request(api.app).patch(`/admin/v1/units/${c.unit.id}`).set(api.adminAuth).send({ name: `Unidade ${round}` }),
        request(api.app).patch(`/admin/v1/units/${c.unit.id}`).set(api.adminAuth).send({ open_on_holidays: round % 2 === 0 }),
        request(api.app).patch(`/admin/v1/appointment-types/${c.type.id}`).set(api.adminAuth).send({ name: `Consulta ${round}` }),
        request(api.app).patch(`/admin/v1/appointment-types/${c.type.id}`).set(api.adminAuth).send({ price: 100 + round }),
      ]);
      expect(answers.map((a) => a.status)).toEqual(Array<number>(8).fill(200));
      const stored = (await request(api.app).get(`/v1/professionals`).set(c.auth)).body.data.find((p: { id: string }) => p.id === pro.id);
      expect(stored).toMatchObject({ name: `Dra. ${round}`, phone: `+5592988${String(770000 + round)}`, schedule, services: [] });
      expect((await request(api.app).get('/v1/units').set(c.auth)).body.data[0]).toMatchObject({ name: `Unidade ${round}`, open_on_holidays: round % 2 === 0 });
      expect((await request(api.app).get('/v1/appointment-types').set(c.auth)).body.data[0]).toMatchObject({ name: `Consulta ${round}`, price: 100 + round });
    }
  });
});

describe('scheduled messages under concurrent writes', () => {
  const schedule = (c: Awaited<ReturnType<typeof clinic>>, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    request(api.app)
      .post('/v1/scheduled-messages')
      .set(c.auth)
      .set(headers)
      .send({ phone: nextPhone(), text: 'Lembrete', send_at: new Date(Date.now() + 3_600_000).toISOString(), setor_id: c.setor.id, ...extra });

  it('ten cancels of one scheduled message: all answer the one cancellation (same cancelled_at), the message cancelled once', async () => {
    const c = await clinic();
    const message = (await schedule(c)).body.data as { id: string };
    const answers = await Promise.all(Array.from({ length: 10 }, () => request(api.app).delete(`/v1/scheduled-messages/${message.id}`).set(c.auth)));
    expect(sortedStatuses(answers)).toEqual(Array<number>(10).fill(200));
    expect(new Set(answers.map((a) => a.body.data.cancelled_at as string)).size).toBe(1);
    expect((await request(api.app).get(`/v1/scheduled-messages/${message.id}`).set(c.auth)).body.data.status).toBe('cancelled');
  });

  it('fifteen schedules with one Idempotency-Key: one message; the others replay it or answer 409 IDEMPOTENCY_KEY_IN_USE', async () => {
    const c = await clinic();
    const body = { phone: nextPhone(), text: 'Uma vez', send_at: new Date(Date.now() + 3_600_000).toISOString(), setor_id: c.setor.id };
    const answers = await Promise.all(Array.from({ length: 15 }, () => request(api.app).post('/v1/scheduled-messages').set(c.auth).set('Idempotency-Key', 'agenda-1').send(body)));
    expectOneIdempotentEffect(answers, 201);
    expect(await countOf(api, sql`SELECT count(*) AS n FROM scheduled_messages WHERE company_id = ${c.company.id}`)).toBe(1);
  });

  it('twenty-five schedules at once on a trial company (20 pending): twenty are scheduled, five 402 PLAN_LIMIT_REACHED', async () => {
    const c = await clinic({ plan_code: 'trial' });
    const answers = await Promise.all(Array.from({ length: 25 }, () => schedule(c)));
    expect(sortedStatuses(answers)).toEqual([...Array<number>(20).fill(201), ...Array<number>(5).fill(402)]);
    expect(await countOf(api, sql`SELECT count(*) AS n FROM scheduled_messages WHERE company_id = ${c.company.id} AND kind = 'message'`)).toBe(20);
  });
});
