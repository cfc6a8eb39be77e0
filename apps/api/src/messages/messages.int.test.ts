import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ContainerModule } from 'inversify';
import request from 'supertest';
import { ChannelGateway, Repositories } from '@carteiro/core';
import type { ServiceRepositories } from '@carteiro/postgres';
import { FakeChannelGateway } from '@carteiro/core/testing';
import { createTestApi, secondApiApp, type TestApi, type TestSetorOptions } from '../testing/test-api.js';

/**
 * The /v1/messages routes on PostgreSQL through HTTP, with the core's fake gateway so that
 * failures can be scripted per recipient (the simulator's own behaviour is tested with it).
 */
describe('/v1/messages', () => {
  let api: TestApi;
  const gateway = new FakeChannelGateway({ now: () => new Date() });
  const authed = (key: string) => ({ Authorization: `Bearer ${key}` });
  let phoneSeq = 0;
  /** A fresh Brazilian mobile for each call (never ending in the simulator's scripted digits). */
  const phone = () => `+55 11 9${String(6000_0000 + (phoneSeq += 7)).padStart(8, '0')}`;

  beforeAll(async () => {
    api = await createTestApi({
      overrides: [
        new ContainerModule(({ bind, isBound, rebind }) => {
          if (isBound(ChannelGateway)) rebind(ChannelGateway).toConstantValue(gateway);
          else bind(ChannelGateway).toConstantValue(gateway);
        }),
      ],
    });
  });
  afterAll(async () => api?.close());

  /** A company with one connected setor (a QR box unless `box` says otherwise) and a key. */
  function tenant(settings: Record<string, unknown> = {}, keyOptions: { mode?: 'live' | 'test'; scopes?: ('*' | 'messages:write' | 'campaigns:read')[] } = {}, box: TestSetorOptions = {}) {
    return api.createTenant({ settings: { company_rpm: 10_000, ...settings }, key: { mode: keyOptions.mode ?? 'live', scopes: keyOptions.scopes ?? ['messages:write'], rpm: 10_000 }, setor: box });
  }
  const balanceOf = async (companyId: string) => (await request(api.app).get(`/admin/v1/companies/${companyId}`).set(api.adminAuth)).body.data.avulso_balance;
  const post = (key: string, path: string, body: unknown) => request(api.app).post(`/v1${path}`).set(authed(key)).send(body as object);

  describe('POST /v1/messages', () => {
    it('sends a text, answers 201 with the send result and debits one unit of an avulso balance', async () => {
      const { company, key, setor, instance } = await tenant({ modality: 'avulso', avulso_balance: 3 });
      const res = await post(key, '/messages', { phone: '55 (11) 98888-1234', message: { text: 'Olá' } });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        success: true,
        data: expect.objectContaining({
          message_id: expect.any(String),
          phone: '+5511988881234',
          status: 'sent',
          setor_id: setor.id,
          sender_number: instance.phoneNumber,
          timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        }),
      });
      expect(await balanceOf(company.id)).toBe(2);
    });

    it('answers 400 for missing or malformed fields and INVALID_NUMBER for a bad phone', async () => {
      const { key } = await tenant();
      const cases: [unknown, string][] = [
        [{ phone: phone() }, 'BAD_REQUEST'],
        [{ phone: phone(), message: {} }, 'VALIDATION_ERROR'],
        [{ message: { text: 'x' } }, 'BAD_REQUEST'],
        [{ phone: 'abc', message: { text: 'x' } }, 'INVALID_NUMBER'],
        // A national number without area code (the Brazilian national form 11988881234 is now valid: default_country BR).
        [{ phone: '987654321', message: { text: 'x' } }, 'INVALID_NUMBER'],
        [{ phone: phone(), message: { media_url: 'https://cdn.test/a.png' } }, 'VALIDATION_ERROR'],
        [{ phone: phone(), message: { media_url: 'http://cdn.test/a.png', media_type: 'image' } }, 'VALIDATION_ERROR'],
        [{ phone: phone(), message: { media_url: 'https://cdn.test/a.png', media_type: 'sticker' } }, 'BAD_REQUEST'],
        [{ phone: phone(), message: { text: 'x', template_name: 'promo', template_language: 'pt_BR' } }, 'VALIDATION_ERROR'],
        [{ phone: phone(), message: { template_name: 'promo' } }, 'VALIDATION_ERROR'],
        [{ phone: phone(), multi_number: true, setor_id: '00000000-0000-4000-8000-000000000001', message: { text: 'x' } }, 'VALIDATION_ERROR'],
        [{ phone: phone(), setor_ids: ['00000000-0000-4000-8000-000000000001'], team_id: '00000000-0000-4000-8000-000000000002', message: { text: 'x' } }, 'VALIDATION_ERROR'],
      ];
      for (const [body, code] of cases) {
        const res = await post(key, '/messages', body);
        expect({ body, status: res.status, code: res.body.error?.code }).toEqual({ body, status: 400, code });
      }
    });

    it('answers 404 for another company box, a box without a connected instance and another company contact', async () => {
      const mine = await tenant();
      const theirs = await tenant();
      const offline = await api.createSetor(mine.company.id);
      for (const setor_id of [theirs.setor.id, offline.id, '00000000-0000-4000-8000-000000000999']) {
        const res = await post(mine.key, '/messages', { phone: phone(), setor_id, message: { text: 'x' } });
        expect([res.status, res.body.error.code]).toEqual([404, 'NOT_FOUND']);
      }
      const sent = await post(theirs.key, '/messages', { phone: phone(), message: { text: 'x' } });
      const res = await post(mine.key, '/messages', { client_id: sent.body.data.client_id, message: { text: 'x' } });
      expect([res.status, res.body.error.code]).toEqual([404, 'NOT_FOUND']);
    });

    it('answers 403 MULTI_NUMBER_DISABLED for pool modes without the feature', async () => {
      const { key, setor } = await tenant({ multi_number_enabled: false });
      for (const selection of [{ multi_number: true }, { setor_ids: [setor.id] }]) {
        const res = await post(key, '/messages', { phone: phone(), ...selection, message: { text: 'x' } });
        expect([res.status, res.body.error.code]).toEqual([403, 'MULTI_NUMBER_DISABLED']);
      }
    });

    it('rotates across the numbers of a pool, whichever request serves the send', async () => {
      const { company, key, setor } = await tenant();
      const second = await api.createSetor(company.id);
      await api.connectSetor(company.id, second.id);
      const used = [];
      for (let i = 0; i < 4; i += 1) used.push((await post(key, '/messages', { phone: phone(), multi_number: true, message: { text: `n${i}` } })).body.data.setor_id);
      expect(used).toEqual([setor.id, second.id, setor.id, second.id]);
      const team = (await request(api.app).post(`/admin/v1/companies/${company.id}/teams`).set(api.adminAuth).send({ nome: 'T', setor_ids: [second.id, setor.id] })).body.data;
      const viaTeam = [];
      for (let i = 0; i < 2; i += 1) viaTeam.push((await post(key, '/messages', { phone: phone(), team_id: team.id, message: { text: 't' } })).body.data.setor_id);
      expect(new Set(viaTeam)).toEqual(new Set([setor.id, second.id]));
    });

    it('continues one rotation across two API processes on the same database', async () => {
      const { company, key, setor } = await tenant();
      const second = await api.createSetor(company.id);
      await api.connectSetor(company.id, second.id);
      // A second API "process": its own container and pool-less state, the same PostgreSQL.
      const other = secondApiApp(api, {
        overrides: [
          new ContainerModule(({ bind, isBound, rebind }) => {
            if (isBound(ChannelGateway)) rebind(ChannelGateway).toConstantValue(gateway);
            else bind(ChannelGateway).toConstantValue(gateway);
          }),
        ],
      });
      const apps = [api.app, other];
      const used = [];
      for (let i = 0; i < 4; i += 1) {
        const res = await request(apps[i % 2]!).post('/v1/messages').set(authed(key)).send({ phone: phone(), multi_number: true, message: { text: 'x' } });
        used.push(res.body.data.setor_id);
      }
      expect(used).toEqual([setor.id, second.id, setor.id, second.id]);
    });

    it('answers 402 when the balance is exhausted or the account is expired or inactive', async () => {
      const broke = await tenant({ modality: 'avulso', avulso_balance: 0 });
      expect((await post(broke.key, '/messages', { phone: phone(), message: { text: 'x' } })).body.error.code).toBe('BULK_DISABLED');
      const expired = await tenant({ modality: 'avulso', avulso_balance: 5, expires_at: '2020-01-01T00:00:00.000Z' });
      const res = await post(expired.key, '/messages', { phone: phone(), message: { text: 'x' } });
      expect([res.status, res.body.error.code]).toEqual([402, 'PLAN_EXPIRED']);
      const inactive = await tenant({ modality: 'inativo' });
      expect((await post(inactive.key, '/messages', { phone: phone(), message: { text: 'x' } })).status).toBe(402);
    });

    it('answers 403 once the daily limit is reached', async () => {
      const { key } = await tenant({ daily_limit: 1 });
      expect((await post(key, '/messages', { phone: phone(), message: { text: 'x' } })).status).toBe(201);
      const res = await post(key, '/messages', { phone: phone(), message: { text: 'x' } });
      expect([res.status, res.body.error.code, res.body.error.message]).toEqual([403, 'FORBIDDEN', 'Daily messages limit exceeded']);
    });

    it('refunds the unit and answers 502 PROVIDER_ERROR when the provider fails', async () => {
      const { company, key } = await tenant({ modality: 'avulso', avulso_balance: 1 });
      const to = '+5511977770004';
      gateway.failFor(to, { code: 'TEMP_SERVER_ERROR', providerFailure: true });
      const res = await post(key, '/messages', { phone: to, message: { text: 'x' } });
      expect([res.status, res.body.error.code, res.body.error.details.error_code]).toEqual([502, 'PROVIDER_ERROR', 'TEMP_SERVER_ERROR']);
      expect(await balanceOf(company.id)).toBe(1);
    });

    it('never lets the balance go below zero under 20 concurrent sends', async () => {
      const { company, key } = await tenant({ modality: 'avulso', avulso_balance: 7 });
      const results = await Promise.all(Array.from({ length: 20 }, () => post(key, '/messages', { phone: phone(), message: { text: 'corrida' } })));
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(7);
      expect(statuses.filter((s) => s === 402)).toHaveLength(13);
      expect(await balanceOf(company.id)).toBe(0);
      const limits = await request(api.app).get('/admin/v1/companies/' + company.id).set(api.adminAuth);
      expect(limits.body.data.avulso_balance).toBe(0);
    });

    it('touches no balance with a test key', async () => {
      const { company, key } = await tenant({ modality: 'avulso', avulso_balance: 0 }, { mode: 'test' });
      const res = await post(key, '/messages', { phone: phone(), message: { text: 'teste' } });
      expect(res.status).toBe(201);
      expect(gateway.sent.at(-1)?.mode).toBe('test');
      expect(await balanceOf(company.id)).toBe(0);
    });

    it('sends after_text media as two channel messages', async () => {
      const { key } = await tenant();
      const to = phone();
      const before = gateway.sent.length;
      const res = await post(key, '/messages', { phone: to, message: { text: 'Veja', media_url: 'https://cdn.test/a.png', media_type: 'image', media_delivery: 'after_text' } });
      expect(res.status).toBe(201);
      expect(gateway.sent.slice(before).map((s) => s.content.kind)).toEqual(['text', 'media']);
    });
  });

  describe('POST /v1/messages/first-contact', () => {
    it('creates the contact, the affinity and the tags; later first contacts reuse the affinity', async () => {
      const { company, key, setor } = await tenant();
      const second = await api.createSetor(company.id);
      await api.connectSetor(company.id, second.id);
      const repos = api.container.get<ServiceRepositories>(Repositories);
      const tagId = crypto.randomUUID();
      await repos.tags.insert({ id: tagId, companyId: company.id, name: 'lead', createdAt: new Date() });
      const to = phone();
      const res = await post(key, '/messages/first-contact', { phone: to, name: 'Ana', message: 'Oi Ana', setor_id: second.id, tags: [tagId] });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ status: 'sent', setor_id: second.id, affinity_created: true, affinity_source: 'first_contact', client_id: expect.any(String) });
      expect(await repos.tags.tagIdsOfContact(res.body.data.client_id)).toEqual([tagId]);
      expect((await repos.contacts.findById(company.id, res.body.data.client_id))?.name).toBe('Ana');
      const again = await post(key, '/messages/first-contact', { phone: to, message: 'De novo' });
      expect(again.body.data).toMatchObject({ setor_id: second.id, affinity_created: false, client_id: res.body.data.client_id });
      expect(setor.id).not.toBe(second.id);
      const badTag = await post(key, '/messages/first-contact', { phone: phone(), message: 'x', tags: [crypto.randomUUID()] });
      expect(badTag.status).toBe(404);
    });

    it('names its own text field, `message`, when the text is missing (first-contact has no `text` field)', async () => {
      const { key } = await tenant();
      const missing = await post(key, '/messages/first-contact', { phone: phone() });
      expect([missing.status, missing.body.error.code, missing.body.error.details.field]).toEqual([400, 'VALIDATION_ERROR', 'message']);
      expect(missing.body.error.message).toMatch(/^message is required/);
      const blank = await post(key, '/messages/first-contact', { phone: phone(), message: '   ' });
      expect([blank.status, blank.body.error.details.field]).toEqual([400, 'message']);
    });

    it('on an official box accepts only a template until the contact writes, then free text', async () => {
      const { company, key, setor: official } = await tenant({}, {}, { channel_type: 'official', official: { phone_number_id: '1', access_token: 't', waba_id: 'w' } });
      const to = phone();
      const text = await post(key, '/messages/first-contact', { phone: to, message: 'Oi' });
      expect([text.status, text.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
      const media = await post(key, '/messages/first-contact', { phone: to, media_url: 'https://cdn.test/a.png', media_type: 'image' });
      expect(media.status).toBe(400);
      const template = await post(key, '/messages/first-contact', { phone: to, template_name: 'boas_vindas', template_language: 'pt_BR' });
      expect(template.status).toBe(201);
      const outside = await post(key, '/messages', { phone: to, message: { text: 'Oi' } });
      expect([outside.status, outside.body.error.code]).toEqual([422, 'WINDOW_EXPIRED']);
      const inbound = await request(api.app).post('/admin/v1/simulator/inbound').set(api.adminAuth).send({ setor_id: official.id, from: to, text: 'Quero saber mais' });
      expect(inbound.status).toBe(201);
      expect(inbound.body.data).toMatchObject({ company_id: company.id, setor_id: official.id, contact_created: false });
      const inside = await post(key, '/messages', { phone: to, message: { text: 'Claro!' } });
      expect(inside.status).toBe(201);
    });
  });

  describe('interactive, event and poll', () => {
    it('sends a list on a QR box as numbered text and answers interactive_type', async () => {
      const { key } = await tenant();
      const before = gateway.sent.length;
      const res = await post(key, '/messages/interactive', {
        phone: phone(),
        interactive: { type: 'list', body: { text: 'Escolha' }, action: { sections: [{ rows: [{ id: 'a', title: 'Alfa' }, { id: 'b', title: 'Beta' }] }] } },
      });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ status: 'sent', interactive_type: 'list', message_id: expect.any(String) });
      const sent = gateway.sent.slice(before);
      expect(sent).toHaveLength(1);
      expect(sent[0]?.content.kind).toBe('text');
      expect((sent[0]?.content as { text: string }).text).toMatch(/Escolha[\s\S]*1\. Alfa\n2\. Beta/);
    });

    it('validates buttons and rows', async () => {
      const { key } = await tenant();
      const button = (title: string, id = title) => ({ type: 'reply', reply: { id, title } });
      const tooMany = await post(key, '/messages/interactive', { phone: phone(), interactive: { type: 'button', body: { text: 'x' }, action: { buttons: ['a', 'b', 'c', 'd'].map((t) => button(t)) } } });
      expect(tooMany.status).toBe(400);
      const longTitle = await post(key, '/messages/interactive', { phone: phone(), interactive: { type: 'button', body: { text: 'x' }, action: { buttons: [button('x'.repeat(21))] } } });
      expect(longTitle.status).toBe(400);
      const rows = Array.from({ length: 11 }, (_, i) => ({ id: `r${i}`, title: `Linha ${i}` }));
      const tooManyRows = await post(key, '/messages/interactive', { phone: phone(), interactive: { type: 'list', body: { text: 'x' }, action: { sections: [{ rows }] } } });
      expect(tooManyRows.status).toBe(400);
    });

    it('sends an event card and refuses a start in the past or an end before the start', async () => {
      const { key } = await tenant();
      const start = Math.floor(Date.now() / 1000) + 3600;
      const res = await post(key, '/messages/event', { phone: phone(), event: { name: 'Consulta', startTime: start, endTime: start + 1800, location: 'Sala 2' } });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ event_name: 'Consulta', start_time: start, end_time: start + 1800 });
      expect(gateway.sent.at(-1)?.content.kind).toBe('event');
      expect((await post(key, '/messages/event', { phone: phone(), event: { name: 'x', startTime: start - 7200 } })).status).toBe(400);
      expect((await post(key, '/messages/event', { phone: phone(), event: { name: 'x', startTime: start, endTime: start } })).status).toBe(400);
    });

    it('takes startTime and endTime as numbers, as the specification types them: Date.now() / 1000 with its fraction is accepted', async () => {
      const { key } = await tenant();
      const start = Date.now() / 1000 + 3600.25;
      const res = await post(key, '/messages/event', { phone: phone(), event: { name: 'Consulta', startTime: start, endTime: start + 1800.5 } });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ event_name: 'Consulta', start_time: start, end_time: start + 1800.5 });
      expect(gateway.sent.at(-1)?.content.kind).toBe('event');
    });

    it('sends a poll with 2 to 12 options', async () => {
      const { key } = await tenant();
      const res = await post(key, '/messages/poll', { phone: phone(), poll: { name: 'Melhor dia?', options: ['Seg', 'Ter', 'Qua'], multipleAnswers: true } });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ poll_name: 'Melhor dia?', options_count: 3 });
      expect((await post(key, '/messages/poll', { phone: phone(), poll: { name: 'x', options: ['so uma'] } })).status).toBe(400);
      const thirteen = Array.from({ length: 13 }, (_, i) => `o${i}`);
      expect((await post(key, '/messages/poll', { phone: phone(), poll: { name: 'x', options: thirteen } })).status).toBe(400);
    });
  });

  describe('edit, delete and reaction', () => {
    it('edits, reacts, removes the reaction and soft-deletes a sent message; another company gets 404', async () => {
      const { key } = await tenant();
      const other = await tenant();
      const sent = (await post(key, '/messages', { phone: phone(), message: { text: 'Oi' } })).body.data;
      const edit = await request(api.app).patch(`/v1/messages/${sent.message_id}`).set(authed(key)).send({ text: 'Olá' });
      expect([edit.status, edit.body.data.text, typeof edit.body.data.edited_at]).toEqual([200, 'Olá', 'string']);
      const react = await post(key, `/messages/${sent.message_id}/reaction`, { emoji: '👍' });
      expect(react.body.data).toMatchObject({ reaction: '👍', removed: false });
      const unreact = await post(key, `/messages/${sent.message_id}/reaction`, { emoji: '' });
      expect(unreact.body.data).toMatchObject({ reaction: null, removed: true });
      expect((await request(api.app).delete(`/v1/messages/${sent.message_id}`).set(authed(other.key))).status).toBe(404);
      expect((await request(api.app).patch(`/v1/messages/not-an-id`).set(authed(key)).send({ text: 'x' })).status).toBe(400);
      expect((await request(api.app).delete(`/v1/messages/${crypto.randomUUID()}`).set(authed(key))).status).toBe(404);
      const del = await request(api.app).delete(`/v1/messages/${sent.message_id}`).set(authed(key));
      expect([del.status, del.body.data.deleted]).toEqual([200, true]);
      const late = await request(api.app).patch(`/v1/messages/${sent.message_id}`).set(authed(key)).send({ text: 'x' });
      expect([late.status, late.body.error.code]).toEqual([409, 'CONFLICT']);
    });

    it('answers 502 PROVIDER_ERROR and changes nothing when the channel fails the operation', async () => {
      const { key } = await tenant();
      const to = phone();
      const sent = (await post(key, '/messages', { phone: to, message: { text: 'Oi' } })).body.data;
      gateway.failOperationsFor(sent.phone, { code: 'TEMP_SERVER_ERROR', providerFailure: true });
      const react = await post(key, `/messages/${sent.message_id}/reaction`, { emoji: '👍' });
      expect([react.status, react.body.error.code, react.body.error.details.error_code]).toEqual([502, 'PROVIDER_ERROR', 'TEMP_SERVER_ERROR']);
      const del = await request(api.app).delete(`/v1/messages/${sent.message_id}`).set(authed(key));
      expect([del.status, del.body.error.code]).toEqual([502, 'PROVIDER_ERROR']);
      gateway.operationFailures.delete(sent.phone);
      const edit = await request(api.app).patch(`/v1/messages/${sent.message_id}`).set(authed(key)).send({ text: 'Olá' });
      expect([edit.status, edit.body.data.reaction, edit.body.data.deleted]).toEqual([200, null, false]);
    });
  });

  it('requires the messages:write scope on every route', async () => {
    const { key } = await tenant({}, { scopes: ['campaigns:read'] });
    const id = '00000000-0000-4000-8000-000000000001';
    const calls = [
      request(api.app).post('/v1/messages').set(authed(key)).send({ phone: phone(), message: { text: 'x' } }),
      request(api.app).post('/v1/messages/first-contact').set(authed(key)).send({ phone: phone(), message: 'x' }),
      request(api.app).post('/v1/messages/interactive').set(authed(key)).send({}),
      request(api.app).post('/v1/messages/event').set(authed(key)).send({}),
      request(api.app).post('/v1/messages/poll').set(authed(key)).send({}),
      request(api.app).patch(`/v1/messages/${id}`).set(authed(key)).send({ text: 'x' }),
      request(api.app).delete(`/v1/messages/${id}`).set(authed(key)),
      request(api.app).post(`/v1/messages/${id}/reaction`).set(authed(key)).send({ emoji: '👍' }),
    ];
    for (const res of await Promise.all(calls)) expect([res.status, res.body.error.code]).toEqual([403, 'FORBIDDEN']);
    expect((await request(api.app).post('/v1/messages').send({})).status).toBe(401);
  });

  it('answers 404 for the simulator inbound route with an unknown box and 401 without the admin token', async () => {
    const unknown = await request(api.app).post('/admin/v1/simulator/inbound').set(api.adminAuth).send({ setor_id: crypto.randomUUID(), from: phone(), text: 'x' });
    expect(unknown.status).toBe(404);
    expect((await request(api.app).post('/admin/v1/simulator/inbound').send({})).status).toBe(401);
  });
});
