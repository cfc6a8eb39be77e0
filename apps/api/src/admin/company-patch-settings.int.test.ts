import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestApi, type TestApi } from '../testing/test-api.js';

let api: TestApi;
beforeAll(async () => {
  api = await createTestApi();
});
afterAll(() => api.close());

describe('PATCH /admin/v1/companies/:id carries reminder settings and low-balance thresholds (business.md §8)', () => {
  it('stores reminder_offsets_minutes, reminder_text and low_balance_thresholds, answers them, and the separate routes see the same values', async () => {
    const company = await api.createCompany({});
    const patch = (body: object) => request(api.app).patch(`/admin/v1/companies/${company.id}`).set(api.adminAuth).send(body);
    const first = await patch({ reminder_offsets_minutes: [30, 180], reminder_text: 'Olá {{nome}}', low_balance_thresholds: { lead_credits: 10 } });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ id: company.id, reminder_offsets_minutes: [180, 30], reminder_text: 'Olá {{nome}}', low_balance_thresholds: { messages: 100, lead_credits: 10, ai_credits: null } });
    const read = await request(api.app).get(`/admin/v1/companies/${company.id}`).set(api.adminAuth);
    expect(read.body.data).toEqual(first.body.data);
    const settings = await request(api.app).get(`/admin/v1/companies/${company.id}/reminder-settings`).set(api.adminAuth);
    expect(settings.body.data).toMatchObject({ reminder_offsets_minutes: [180, 30], reminder_text: 'Olá {{nome}}' });

    // Omitted fields keep theirs; null restores the default; other settings still patch.
    const second = await patch({ name: 'Clínica Norte', reminder_text: null, low_balance_thresholds: { messages: 5 } });
    expect(second.body.data).toMatchObject({ name: 'Clínica Norte', reminder_offsets_minutes: [180, 30], reminder_text: null, low_balance_thresholds: { messages: 5, lead_credits: 10, ai_credits: null } });
    const third = await patch({ low_balance_thresholds: { lead_credits: null } });
    expect(third.body.data.low_balance_thresholds).toEqual({ messages: 5, lead_credits: 50, ai_credits: null });

    expect((await patch({ reminder_offsets_minutes: [0] })).status).toBe(400);
    expect((await patch({ low_balance_thresholds: { messages: -1 } })).status).toBe(400);
    expect((await patch({ low_balance_thresholds: { bananas: 1 } })).status).toBe(400);
    expect((await request(api.app).patch('/admin/v1/companies/00000000-0000-4000-8000-000000000000').set(api.adminAuth).send({ reminder_text: 'x' })).status).toBe(404);
    expect((await request(api.app).patch('/admin/v1/companies/not-a-uuid').set(api.adminAuth).send({ reminder_text: 'x' })).status).toBe(400);
  });

  it('writes all or nothing: a refused reminder offset leaves the name, the quotas and the thresholds of the same request unchanged', async () => {
    const company = await api.createCompany({});
    const url = `/admin/v1/companies/${company.id}`;
    const before = (await request(api.app).get(url).set(api.adminAuth)).body.data;
    const refused = await request(api.app)
      .patch(url)
      .set(api.adminAuth)
      .send({ name: 'Renamed', quotas: { appointments_per_month: 3 }, low_balance_thresholds: { messages: 7 }, reminder_offsets_minutes: [0] });
    expect([refused.status, refused.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
    const after = (await request(api.app).get(url).set(api.adminAuth)).body.data;
    expect(after).toEqual(before);
    const unchanged = (await request(api.app).patch(url).set(api.adminAuth).send({ name: before.name }).expect(200)).body.data;
    expect([unchanged.low_balance_thresholds.messages, unchanged.reminder_offsets_minutes]).toEqual([100, null]);
  });

  it('quotas: overrides per quota name (null returns to the plan’s) are shown by the company, used by GET /v1/limits and by the quota checks; none for unlimited', async () => {
    const company = await api.createCompany({ plan_code: 'trial', safe_hours: { start: 0, end: 24 } });
    const adminPost = (path: string, body: object) => request(api.app).post(`/admin/v1/companies/${company.id}${path}`).set(api.adminAuth).send(body).expect(201);
    const unit = (await adminPost('/units', { name: 'Centro', timezone: 'America/Manaus' })).body.data;
    const type = (await adminPost('/appointment-types', { name: 'Consulta', duration_minutes: 30, min_notice_minutes: 0, unit_ids: [unit.id] })).body.data;
    const everyDay = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ unit_id: unit.id, weekday, start: '00:00', end: '24:00' }));
    await adminPost('/professionals', { name: 'Dra. Ana', schedule: everyDay, services: [{ appointment_type_id: type.id, unit_id: unit.id }] });
    const key = await api.createKey(company.id, { scopes: ['appointments:write', 'credits:read'], mode: 'live' });
    const auth = { Authorization: `Bearer ${key}` };
    const limits = async () => (await request(api.app).get('/v1/limits').set(auth)).body.data.quotas;
    expect((await limits()).appointments_per_month.limit).toBe(50);

    const patched = await request(api.app).patch(`/admin/v1/companies/${company.id}`).set(api.adminAuth).send({ quotas: { appointments_per_month: 1, lead_searches_per_day: 7 } });
    expect([patched.status, patched.body.data.quotas]).toEqual([200, { appointments_per_month: 1, lead_searches_per_day: 7 }]);
    expect((await request(api.app).get(`/admin/v1/companies/${company.id}`).set(api.adminAuth)).body.data.quotas).toEqual({ appointments_per_month: 1, lead_searches_per_day: 7 });
    expect((await limits()).appointments_per_month).toMatchObject({ limit: 1, used: 0, remaining: 1 });
    expect((await limits()).lead_searches_per_day.limit).toBe(7);

    const at = (hour: number) => new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10) + `T${String(hour).padStart(2, '0')}:00:00.000Z`;
    const book = (hour: number) => request(api.app).post('/v1/appointments').set(auth).send({ appointment_type_id: type.id, starts_at: at(hour), phone: '+5592911112222' });
    expect((await book(14)).status).toBe(201);
    const refused = await book(16);
    expect([refused.status, refused.body.error.code, refused.body.error.details.limit]).toEqual([402, 'PLAN_LIMIT_REACHED', 1]);

    // null returns that quota to the plan's; the other override stays.
    const cleared = await request(api.app).patch(`/admin/v1/companies/${company.id}`).set(api.adminAuth).send({ quotas: { appointments_per_month: null } });
    expect(cleared.body.data.quotas).toEqual({ lead_searches_per_day: 7 });
    expect((await limits()).appointments_per_month.limit).toBe(50);
    expect((await book(16)).status).toBe(201);

    await request(api.app).patch(`/admin/v1/companies/${company.id}`).set(api.adminAuth).send({ unlimited: true }).expect(200);
    expect((await limits()).lead_searches_per_day.limit).toBeNull();

    const patch = (body: object) => request(api.app).patch(`/admin/v1/companies/${company.id}`).set(api.adminAuth).send(body);
    expect((await patch({ quotas: { appointments_per_month: -1 } })).status).toBe(400);
    expect((await patch({ quotas: { appointments_per_month: 1.5 } })).status).toBe(400);
    expect((await patch({ quotas: { appointments_per_month: 1_000_001 } })).status).toBe(400);
    expect((await patch({ quotas: { bananas: 1 } })).status).toBe(400);
  }, 30_000);
});
