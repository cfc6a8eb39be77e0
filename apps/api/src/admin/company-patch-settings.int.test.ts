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
});
