import request from 'supertest';
import type { TestApi } from './test-api.js';

/** Every weekday, 08:00-18:00 (or as given), in one unit. */
export const everyDay = (unitId: string, start = '08:00', end = '18:00') => [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ unit_id: unitId, weekday, start, end }));

/** What {@link createClinic} may change of its defaults. */
export interface ClinicOptions {
  /** Company settings (besides safe hours around the clock). */
  settings?: Record<string, unknown>;
  keyMode?: 'live' | 'test';
  /** Fields of the appointment type over the defaults (30 minutes, 10 minutes of buffer after, R$ 150,50). */
  type?: Record<string, unknown>;
}

/**
 * A company with a connected box, a Manaus unit (UTC−4, no daylight saving), a 30-minute appointment type and two
 * professionals working every day, and a key with the appointment and scheduled-message scopes.
 */
export async function createClinic(api: TestApi, { settings = {}, keyMode = 'live', type: typeFields = {} }: ClinicOptions = {}) {
  const company = await api.createCompany({ safe_hours: { start: 0, end: 24 }, ...settings });
  const setor = await api.createSetor(company.id);
  await api.connectSetor(company.id, setor.id);
  const admin = (path: string) => `/admin/v1/companies/${company.id}${path}`;
  const unit = (
    await request(api.app)
      .post(admin('/units'))
      .set(api.adminAuth)
      .send({ name: 'Centro', timezone: 'America/Manaus', address: { street: 'Av. Eduardo Ribeiro', number: '520', district: 'Centro', city: 'Manaus', uf: 'AM', postal_code: '69010-001', ibge_code: '1302603' } })
      .expect(201)
  ).body.data;
  const type = (
    await request(api.app)
      .post(admin('/appointment-types'))
      .set(api.adminAuth)
      .send({ name: 'Consulta', duration_minutes: 30, buffer_after_minutes: 10, slot_interval_minutes: 30, min_notice_minutes: 60, max_advance_days: 30, price: 150.5, unit_ids: [unit.id], ...typeFields })
      .expect(201)
  ).body.data;
  const pros = [];
  for (const name of ['Dra. Ana', 'Dr. Bruno']) {
    pros.push(
      (
        await request(api.app)
          .post(admin('/professionals'))
          .set(api.adminAuth)
          .send({ name, schedule: everyDay(unit.id), services: [{ appointment_type_id: type.id, unit_id: unit.id }] })
          .expect(201)
      ).body.data,
    );
  }
  const key = await api.createKey(company.id, { scopes: ['appointments:read', 'appointments:write', 'scheduled_messages:read', 'scheduled_messages:write'], mode: keyMode, rpm: 100_000 });
  return { company, setor, unit, type, pros, auth: { Authorization: `Bearer ${key}` }, admin };
}
