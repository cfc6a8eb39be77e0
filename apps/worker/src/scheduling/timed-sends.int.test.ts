import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { ChannelGateway, Repositories, timedClientMessageId, type ChannelInstance, type Setor } from '@carteiro/core';
import type { ServiceRepositories } from '@carteiro/postgres';
import { sql } from 'kysely';
import { createTestApi, type TestApi } from '../../../api/src/testing/test-api.js';
import { createTestWorker, eventually, type TestWorker } from '../testing/test-worker.js';
import { LaneRunner } from '../campaigns/lane-runner.js';
import { campaignTenant, outbox, phone, simulatorOverride } from '../campaigns/testing/campaign-e2e.js';

const LEASE_MS = '800';

describe('timed sends through the dispatch lanes (scheduled messages and reminders)', () => {
  let api: TestApi;
  let worker: TestWorker;
  const previousLease = process.env.CAMPAIGN_LANE_LEASE_MS;

  beforeAll(async () => {
    process.env.CAMPAIGN_LANE_LEASE_MS = LEASE_MS;
    api = await createTestApi({ env: { PACING_SCALE: '0.001' } });
    worker = await createTestWorker({ database: api.database, env: { PACING_SCALE: '0.001', CAMPAIGN_LANE_LEASE_MS: LEASE_MS }, overrides: [simulatorOverride(api.database.db)] });
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    process.env.CAMPAIGN_LANE_LEASE_MS = previousLease;
  });

  async function tenant() {
    const t = await campaignTenant(api, { boxes: 1, warmingLimit: 10_000 });
    const key = await api.createKey(t.company.id, { scopes: ['scheduled_messages:read', 'scheduled_messages:write'], mode: 'live', rpm: 100_000 });
    return { ...t, auth: { Authorization: `Bearer ${key}` } };
  }

  /**
   * An appointments key of the company, and through the admin API a unit open at every hour of every day (`unit`'s
   * fields), an appointment type there with no minimum notice (`type`'s fields) and a professional named `professional`
   * serving it there.
   */
  async function clinic(companyId: string, unit: Record<string, unknown>, type: Record<string, unknown>, professional: string) {
    const key = await api.createKey(companyId, { scopes: ['appointments:write', 'appointments:read'], mode: 'live', rpm: 100_000 });
    const admin = (p: string) => request(api.app).post(`/admin/v1/companies/${companyId}${p}`).set(api.adminAuth);
    const created = (await admin('/units').send(unit).expect(201)).body.data;
    const kind = (await admin('/appointment-types').send({ min_notice_minutes: 0, unit_ids: [created.id], ...type }).expect(201)).body.data;
    const week = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ unit_id: created.id, weekday, start: '00:00', end: '24:00' }));
    const pro = (await admin('/professionals').send({ name: professional, schedule: week, services: [{ appointment_type_id: kind.id, unit_id: created.id }] }).expect(201)).body.data;
    return { auth: { Authorization: `Bearer ${key}` }, type: kind, pro };
  }

  /** Makes every scheduled row of the company due now and wakes its lane (instead of waiting 60 s for send_at). */
  async function dueNow(companyId: string, setorId: string) {
    await sql`UPDATE scheduled_messages SET effective_send_at = now() - interval '1 second' WHERE company_id = ${companyId} AND status = 'scheduled'`.execute(api.database.db);
    worker.container.get(LaneRunner).wake(setorId);
  }

  const schedule = (auth: Record<string, string>, i: number, text = 'Olá {{primeiro_nome}}') =>
    request(api.app)
      .post('/v1/scheduled-messages')
      .set(auth)
      .send({ phone: phone(5_000 + i), name: `Pessoa ${i}`, text, send_at: new Date(Date.now() + 120_000).toISOString() });

  it('sends each due scheduled message once, personalised, with the row id as client id, paced, and records message.sent with its id', async () => {
    const t = await tenant();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const created = await schedule(t.auth, i);
      expect(created.status).toBe(201);
      expect(created.body.data).toMatchObject({ status: 'scheduled', attempts: 0, setor_id: t.setores[0] });
      ids.push(created.body.data.id);
    }
    await dueNow(t.company.id, t.setores[0]!);
    await eventually(async () => (await outbox(api.database.db, t.company.id)).length === 5, { timeoutMs: 15_000 });
    const sent = await outbox(api.database.db, t.company.id);
    expect(sent.map((m) => m.client_message_id).sort()).toEqual([...ids].sort());
    for (const m of sent) expect(m.text).toMatch(/^Olá Pessoa$/);
    // A new number keeps its warming interval (30 s × 0.001) between two sends.
    const times = sent.map((m) => m.sent_at.getTime());
    for (let i = 1; i < times.length; i += 1) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(25);
    await eventually(async () => {
      const rows = await api.database.db.selectFrom('scheduled_messages').select('status').where('company_id', '=', t.company.id).execute();
      return rows.every((r) => r.status === 'sent');
    });
    const detail = (await request(api.app).get(`/v1/scheduled-messages/${ids[0]}`).set(t.auth)).body.data;
    expect(detail).toMatchObject({ status: 'sent', attempts: 1, message_id: expect.any(String), sent_at: expect.any(String) });
    const events = await api.database.db.selectFrom('domain_events').select(['event', 'data']).where('company_id', '=', t.company.id).where('event', '=', 'message.sent').execute();
    expect(events.map((e) => (e.data as { scheduledMessageId: string }).scheduledMessageId).sort()).toEqual([...ids].sort());
  }, 30_000);

  it('a cancel racing the send either wins (never sent) or answers 409 (sent): the outbox agrees with every answer', async () => {
    const t = await tenant();
    const ids: string[] = [];
    for (let i = 0; i < 20; i += 1) ids.push((await schedule(t.auth, 100 + i)).body.data.id);
    await dueNow(t.company.id, t.setores[0]!);
    const answers = await Promise.all(ids.map((id) => request(api.app).delete(`/v1/scheduled-messages/${id}`).set(t.auth)));
    await eventually(async () => {
      const rows = await api.database.db.selectFrom('scheduled_messages').select('status').where('company_id', '=', t.company.id).execute();
      return rows.every((r) => r.status === 'sent' || r.status === 'cancelled');
    }, { timeoutMs: 15_000 });
    const sentIds = new Set((await outbox(api.database.db, t.company.id)).map((m) => m.client_message_id));
    for (const [k, answer] of answers.entries()) {
      if (answer.status === 200) {
        expect(answer.body.data).toMatchObject({ id: ids[k], status: 'cancelled' });
        expect(sentIds.has(ids[k]!)).toBe(false);
      } else {
        expect(answer.status).toBe(409);
        expect(answer.body.error).toMatchObject({ code: 'CONFLICT', details: { status: expect.stringMatching(/^(sending|sent)$/) } });
        expect(sentIds.has(ids[k]!)).toBe(true);
      }
    }
    // A repeated cancel of a cancelled one answers the same.
    const won = answers.findIndex((a) => a.status === 200);
    if (won >= 0) expect((await request(api.app).delete(`/v1/scheduled-messages/${ids[won]}`).set(t.auth)).body.data).toEqual(answers[won]!.body.data);
    expect(sentIds.size).toBe(answers.filter((a) => a.status === 409).length);
  }, 30_000);

  it('an appointment cancelled while its reminder is due: the reminder is cancelled (never sent) or was sent before the cancellation', async () => {
    const t = await tenant();
    const { auth, type, pro } = await clinic(t.company.id, { name: 'Centro', timezone: 'America/Sao_Paulo', open_on_holidays: true }, { name: 'Consulta', duration_minutes: 15, reminder_offsets_minutes: [60] }, 'Ana');
    const base = Date.parse(`${new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10)}T12:00:00.000Z`);
    const ids: string[] = [];
    for (let i = 0; i < 15; i += 1) {
      const res = await request(api.app).post('/v1/appointments').set(auth).send({ appointment_type_id: type.id, professional_id: pro.id, starts_at: new Date(base + i * 15 * 60_000).toISOString(), phone: phone(600 + i) });
      expect(res.status).toBe(201);
      ids.push(res.body.data.id);
    }
    await dueNow(t.company.id, t.setores[0]!);
    const answers = await Promise.all(ids.map((id) => request(api.app).delete(`/v1/appointments/${id}`).set(auth).send({ reason: 'race' })));
    for (const a of answers) expect(a.status).toBe(200);
    await eventually(async () => {
      const left = await api.database.db.selectFrom('scheduled_messages').select('id').where('company_id', '=', t.company.id).where('status', 'in', ['scheduled', 'sending']).execute();
      return left.length === 0;
    }, { timeoutMs: 15_000 });
    const sent = await outbox(api.database.db, t.company.id);
    const outboxIds = new Set(sent.map((m) => m.client_message_id));
    for (const [k, id] of ids.entries()) {
      const reminder = await api.database.db.selectFrom('scheduled_messages').selectAll().where('appointment_id', '=', id).executeTakeFirstOrThrow();
      const appointment = await api.database.db.selectFrom('appointments').select('cancelled_at').where('id', '=', id).executeTakeFirstOrThrow();
      if (reminder.status === 'sent') {
        expect(outboxIds.has(reminder.id)).toBe(true);
        expect(answers[k]!.body.data.reminders_cancelled).toBe(0);
        expect(new Date(reminder.updated_at).getTime()).toBeLessThanOrEqual(new Date(appointment.cancelled_at!).getTime());
      } else {
        expect(['cancelled', 'skipped']).toContain(reminder.status);
        expect(outboxIds.has(reminder.id)).toBe(false);
        expect(answers[k]!.body.data.reminders_cancelled).toBe(reminder.status === 'cancelled' ? 1 : 0);
      }
    }
  }, 30_000);

  it('sends a due reminder with the appointment’s details, and the contact answering "Sim" confirms the appointment', async () => {
    const t = await tenant();
    const { auth, type } = await clinic(
      t.company.id,
      { name: 'Unidade Sul', timezone: 'America/Noronha', open_on_holidays: true, address: { street: 'Rua A', number: '10', city: 'Recife', uf: 'PE' } },
      { name: 'Limpeza', duration_minutes: 30, reminder_offsets_minutes: [30] },
      'Dr. Caio',
    );
    const startsAt = `${new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10)}T13:00:00.000Z`; // 11:00 in Noronha
    const booked = (await request(api.app).post('/v1/appointments').set(auth).send({ appointment_type_id: type.id, starts_at: startsAt, phone: phone(700), name: 'Joana Lima' })).body.data;
    expect(booked.reminders).toEqual([expect.objectContaining({ offset_minutes: 30, status: 'scheduled' })]);
    await dueNow(t.company.id, t.setores[0]!);
    await eventually(async () => (await outbox(api.database.db, t.company.id)).length === 1, { timeoutMs: 10_000 });
    const [sent] = await outbox(api.database.db, t.company.id);
    expect(sent!.client_message_id).toBe(booked.reminders[0].id);
    expect(sent!.text).toMatch(/Joana! Lembrete: Limpeza com Dr\. Caio em \d{2}\/\d{2}\/\d{4} às 11:00, Unidade Sul \(Rua A, 10 - Recife\/PE\)\. Responda 1 \(sim\) para confirmar\.$/);
    await eventually(async () => (await request(api.app).get(`/v1/appointments/${booked.id}`).set(auth)).body.data.reminders[0].status === 'sent');
    const events = await api.database.db.selectFrom('domain_events').select('data').where('company_id', '=', t.company.id).where('event', '=', 'message.sent').execute();
    expect(events.map((e) => e.data)).toEqual([expect.objectContaining({ appointmentId: booked.id, reminderId: booked.reminders[0].id })]);

    await request(api.app).post('/admin/v1/simulator/inbound').set(api.adminAuth).send({ setor_id: t.setores[0], from: phone(700), text: 'talvez' }).expect(201);
    expect((await request(api.app).get(`/v1/appointments/${booked.id}`).set(auth)).body.data.status).toBe('scheduled');
    await request(api.app).post('/admin/v1/simulator/inbound').set(api.adminAuth).send({ setor_id: t.setores[0], from: phone(700), text: ' Sim! ' }).expect(201);
    const confirmed = (await request(api.app).get(`/v1/appointments/${booked.id}`).set(auth)).body.data;
    expect(confirmed.status).toBe('confirmed');
    expect(confirmed.history.at(-1)).toMatchObject({ action: 'confirmed', actor: 'contact' });
  }, 30_000);

  it('notify: a reschedule and a cancellation tell the client by message, once each, with the appointment as it then is; without it nothing is sent', async () => {
    const t = await tenant();
    const { auth, type } = await clinic(t.company.id, { name: 'Centro', timezone: 'America/Sao_Paulo', open_on_holidays: true }, { name: 'Consulta', duration_minutes: 30, reminder_offsets_minutes: [] }, 'Dra. Bia');
    const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const booked = (await request(api.app).post('/v1/appointments').set(auth).send({ appointment_type_id: type.id, starts_at: `${day}T13:00:00.000Z`, phone: phone(800), name: 'Rita Souza' }).expect(201)).body.data;

    await request(api.app).patch(`/v1/appointments/${booked.id}`).set(auth).send({ starts_at: `${day}T14:00:00.000Z` }).expect(200);
    await request(api.app).patch(`/v1/appointments/${booked.id}`).set(auth).send({ starts_at: `${day}T15:00:00.000Z`, notify: true }).expect(200);
    await eventually(async () => (await outbox(api.database.db, t.company.id)).length === 1, { timeoutMs: 10_000 });
    const [moved] = await outbox(api.database.db, t.company.id);
    expect(moved!.text).toMatch(/Rita! Seu horário de Consulta com Dra\. Bia foi remarcado para \d{2}\/\d{2}\/\d{4} às 12:00, Centro/);

    await request(api.app).delete(`/v1/appointments/${booked.id}`).set(auth).send({ notify: true }).expect(200);
    await eventually(async () => (await outbox(api.database.db, t.company.id)).length === 2, { timeoutMs: 10_000 });
    const cancelled = (await outbox(api.database.db, t.company.id))[1]!;
    expect(cancelled.text).toMatch(/Rita! Seu horário de Consulta com Dra\. Bia em \d{2}\/\d{2}\/\d{4} às 12:00 foi cancelado\.$/);
    // message.sent is recorded when the lane settles the send, just after the provider took it.
    const events = await eventually(async () => {
      const rows = await api.database.db.selectFrom('domain_events').select('data').where('company_id', '=', t.company.id).where('event', '=', 'message.sent').execute();
      return rows.length === 2 ? rows : null;
    });
    expect(events.map((e) => e.data)).toEqual([expect.objectContaining({ appointmentId: booked.id, noticeId: expect.any(String) }), expect.objectContaining({ appointmentId: booked.id, noticeId: expect.any(String) })]);
    // Notices are not reminders: the detail lists none.
    expect((await request(api.app).get(`/v1/appointments/${booked.id}`).set(auth)).body.data.reminders).toEqual([]);
  }, 30_000);

  it('an official box sends the reminder as the type’s approved template, its parameters personalised', async () => {
    const t = await tenant();
    const official = await api.createSetor(t.company.id, { channel_type: 'official', official: { phone_number_id: '1', access_token: 't', waba_id: 'w' } });
    await api.connectSetor(t.company.id, official.id);
    const { auth, type } = await clinic(
      t.company.id,
      { name: 'Centro', timezone: 'America/Manaus', open_on_holidays: true },
      { name: 'Consulta', duration_minutes: 30, reminder_offsets_minutes: [60], reminder_template: { name: 'lembrete_consulta', language: 'pt_BR', parameters: ['{{primeiro_nome}}', '{{hora_agendamento}}'] } },
      'Ana',
    );
    const startsAt = `${new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10)}T14:00:00.000Z`; // 10:00 in Manaus
    const booked = await request(api.app).post('/v1/appointments').set(auth).send({ appointment_type_id: type.id, starts_at: startsAt, phone: phone(800), name: 'Bia Costa', setor_id: official.id });
    expect(booked.status).toBe(201);
    await dueNow(t.company.id, official.id);
    await eventually(async () => (await outbox(api.database.db, t.company.id)).length === 1, { timeoutMs: 10_000 });
    const sent = await api.database.db.selectFrom('simulator_messages').select(['kind', 'template_name', 'payload', 'setor_id']).where('company_id', '=', t.company.id).executeTakeFirstOrThrow();
    expect(sent).toMatchObject({ kind: 'template', template_name: 'lembrete_consulta', setor_id: official.id });
    expect(JSON.stringify(sent.payload)).toContain('"Bia"');
    expect(JSON.stringify(sent.payload)).toContain('"10:00"');
  }, 30_000);

  it('a lane run that died after the provider accepted the send is taken over and the message is delivered and recorded once', async () => {
    const t = await tenant();
    const id = (await schedule(t.auth, 300, 'Lembrete')).body.data.id as string;
    const repos = worker.container.get<ServiceRepositories>(Repositories);
    // The dead run: it claimed the row and sent it, then the process was killed before recording the outcome.
    await sql`UPDATE scheduled_messages SET effective_send_at = now() - interval '1 second' WHERE id = ${id}`.execute(api.database.db);
    const claimed = await repos.scheduledMessages.claimDue(t.setores[0]!, 'dead-worker:1', new Date(Date.now() + 1_000));
    expect(claimed?.id).toBe(id);
    await sql`UPDATE scheduled_messages SET claimed_at = now() - interval '10 seconds' WHERE id = ${id}`.execute(api.database.db);
    const setor = (await repos.setores.findById(t.setores[0]!)) as Setor;
    const instance = (await repos.channelInstances.findBySetor(setor.id)) as ChannelInstance;
    const gateway = worker.container.get<ChannelGateway>(ChannelGateway);
    const first = await gateway.send({ setor, instance, mode: 'live', to: claimed!.phone, content: { kind: 'text', text: 'Lembrete' }, clientMessageId: timedClientMessageId(claimed!) });
    expect(first.ok).toBe(true);
    expect(await outbox(api.database.db, t.company.id)).toHaveLength(1);

    // The minute sweep (here called at once) finds the stale claim and wakes the lane, whose holder takes it over.
    const { SweepTimedSends } = await import('@carteiro/core');
    for (const setorId of await worker.container.get(SweepTimedSends).execute()) worker.container.get(LaneRunner).wake(setorId);
    await eventually(async () => (await repos.scheduledMessages.findById(t.company.id, id))?.status === 'sent', { timeoutMs: 10_000 });
    const sent = await outbox(api.database.db, t.company.id);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.client_message_id).toBe(id);
    const events = await api.database.db.selectFrom('domain_events').select('data').where('company_id', '=', t.company.id).where('event', '=', 'message.sent').execute();
    expect(events).toHaveLength(1);
    expect((await repos.scheduledMessages.findById(t.company.id, id))!).toMatchObject({ attempts: 1, claimedBy: expect.not.stringMatching(/^dead-worker/) });
  }, 30_000);
});
