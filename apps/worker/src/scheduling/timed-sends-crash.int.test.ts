import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { sql } from 'kysely';
import { createTestApi } from '../../../api/src/testing/test-api.js';
import { crashFixture } from '../testing/crash-fixture.js';
import { eventually } from '../testing/test-worker.js';
import { campaignTenant, outbox, phone, simulatorOverride } from '../campaigns/testing/campaign-e2e.js';

const LEASE_MS = '1500';

describe('a worker killed at the send time of reminders and scheduled messages', () => {
  const fixture = crashFixture(createTestApi, { CAMPAIGN_LANE_LEASE_MS: LEASE_MS });

  it('sends each one exactly once: the next worker takes over the claimed ones with the same client ids', async () => {
    const { api } = fixture;
    const t = await campaignTenant(api, { boxes: 1, warmingLimit: 10_000 });
    const key = await api.createKey(t.company.id, { scopes: ['appointments:write', 'scheduled_messages:write'], mode: 'live', rpm: 100_000 });
    const auth = { Authorization: `Bearer ${key}` };
    const admin = (p: string) => `/admin/v1/companies/${t.company.id}${p}`;
    const unit = (await request(api.app).post(admin('/units')).set(api.adminAuth).send({ name: 'Centro', timezone: 'America/Sao_Paulo', open_on_holidays: true }).expect(201)).body.data;
    const type = (
      await request(api.app).post(admin('/appointment-types')).set(api.adminAuth).send({ name: 'Consulta', duration_minutes: 15, min_notice_minutes: 0, unit_ids: [unit.id], reminder_offsets_minutes: [1440, 120, 60] }).expect(201)
    ).body.data;
    const week = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ unit_id: unit.id, weekday, start: '00:00', end: '24:00' }));
    const pro = (await request(api.app).post(admin('/professionals')).set(api.adminAuth).send({ name: 'Ana', schedule: week, services: [{ appointment_type_id: type.id, unit_id: unit.id }] }).expect(201)).body.data;
    const base = Date.parse(`${new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10)}T12:00:00.000Z`);
    for (let i = 0; i < 40; i += 1) {
      const res = await request(api.app)
        .post('/v1/appointments')
        .set(auth)
        .send({ appointment_type_id: type.id, professional_id: pro.id, starts_at: new Date(base + i * 15 * 60_000).toISOString(), phone: phone(7_000 + i), name: `Paciente ${i}` });
      expect(res.status).toBe(201);
    }
    for (let i = 0; i < 80; i += 1) {
      const res = await request(api.app).post('/v1/scheduled-messages').set(auth).send({ phone: phone(8_000 + i), text: 'Oi {{nome}}', send_at: new Date(Date.now() + 3_600_000).toISOString(), respect_safe_hours: false });
      expect(res.status).toBe(201);
    }
    // Everything due now: 120 reminders and 80 scheduled messages.
    await sql`UPDATE scheduled_messages SET effective_send_at = now() - interval '1 second' WHERE company_id = ${t.company.id} AND status = 'scheduled'`.execute(api.database.db);
    const rows = await api.database.db.selectFrom('scheduled_messages').select(['id', 'kind']).where('company_id', '=', t.company.id).where('status', '=', 'scheduled').execute();
    expect(rows.filter((r) => r.kind === 'reminder')).toHaveLength(120);
    expect(rows).toHaveLength(200);

    // PACING_SCALE 0.001: a new number waits 30 ms between two sends.
    const child = await fixture.startWorkerProcess({ PACING_SCALE: '0.001' });
    await eventually(async () => (await outbox(api.database.db, t.company.id)).length >= 50, { timeoutMs: 30_000, intervalMs: 5 });
    await child.kill();
    const atKill = (await outbox(api.database.db, t.company.id)).length;
    expect(atKill).toBeLessThan(200);

    await fixture.successor({ env: { PACING_SCALE: '0.001', CAMPAIGN_LANE_LEASE_MS: LEASE_MS }, overrides: [simulatorOverride(api.database.db)] });
    await eventually(
      async () => {
        const left = await api.database.db.selectFrom('scheduled_messages').select('id').where('company_id', '=', t.company.id).where('status', 'in', ['scheduled', 'sending']).execute();
        return left.length === 0;
      },
      { timeoutMs: 40_000 },
    );
    const settled = await api.database.db.selectFrom('scheduled_messages').select(['id', 'status']).where('company_id', '=', t.company.id).execute();
    expect(settled.every((r) => r.status === 'sent')).toBe(true);
    const sent = await outbox(api.database.db, t.company.id);
    // Exactly once at the channel: one outbox row per timed send, keyed by its id.
    expect(sent).toHaveLength(200);
    expect(new Set(sent.map((m) => m.client_message_id))).toEqual(new Set(rows.map((r) => r.id)));
    const reminderText = sent.find((m) => m.text?.includes('Lembrete'));
    expect(reminderText?.text).toMatch(/Consulta com Ana em \d{2}\/\d{2}\/\d{4} às \d{2}:\d{2}, Centro/);
    // Exactly once in the records: one message.sent per row, with its ids.
    const events = await api.database.db.selectFrom('domain_events').select('data').where('company_id', '=', t.company.id).where('event', '=', 'message.sent').execute();
    expect(events).toHaveLength(200);
    const keyOf = (d: Record<string, unknown>) => (d.reminderId ?? d.scheduledMessageId) as string;
    expect(new Set(events.map((e) => keyOf(e.data as Record<string, unknown>)))).toEqual(new Set(rows.map((r) => r.id)));
    expect(events.filter((e) => (e.data as Record<string, unknown>).appointmentId)).toHaveLength(120);
    process.stdout.write(`timed sends: killed after ${atKill} of 200\n`);
  }, 120_000);
});
