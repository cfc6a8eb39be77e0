import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { ChannelGateway, CheckChannelHealth, Repositories } from '@carteiro/core';
import { readUntil } from '@carteiro/core/testing';
import type { ServiceRepositories } from '@carteiro/postgres';
import { createTestApi, type TestApi } from '../testing/test-api.js';

const authed = (key: string) => ({ Authorization: `Bearer ${key}` });

describe('/v1/channel/instances', () => {
  let api: TestApi;
  let companyId: string;
  let key: string;
  let otherKey: string;

  beforeAll(async () => {
    api = await createTestApi({ env: { SIMULATOR_SCAN_DELAY_MS: '300' } });
    companyId = (await api.createCompany({ company_rpm: 100_000 })).id;
    key = await api.createKey(companyId, { scopes: ['channel:manage'], rpm: 100_000 });
    const other = (await api.createCompany({ company_rpm: 100_000 })).id;
    otherKey = await api.createKey(other, { scopes: ['channel:manage'], rpm: 100_000 });
  });
  afterAll(async () => api?.close());

  const events = async (name: string, setorId: string) => {
    const rows = await api.database.db.selectFrom('domain_events').selectAll().where('event', '=', name).where('setor_id', '=', setorId).execute();
    return rows;
  };
  const newInstance = async (nome = 'Vendas') => {
    const setor = await api.createSetor(companyId, { nome });
    const res = await request(api.app).post('/v1/channel/instances').set(authed(key)).send({ setor_id: setor.id });
    expect(res.status).toBe(201);
    return { setor, instanceId: res.body.data.instance_id as string };
  };
  const connect = async (instanceId: string) => {
    await request(api.app).get(`/v1/channel/instances/${instanceId}/qr`).set(authed(key)).expect(200);
    const res = await readUntil(
      () => request(api.app).get(`/v1/channel/instances/${instanceId}/status`).set(authed(key)),
      (r) => r.body.data?.status === 'connected',
    );
    expect(res.body.data.status).toBe('connected');
    return res.body.data.phone_number as string;
  };

  it('creates a disconnected instance for a box and reuses it on a second call', async () => {
    const setor = await api.createSetor(companyId);
    const first = await request(api.app).post('/v1/channel/instances').set(authed(key)).send({ setor_id: setor.id });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      success: true,
      data: { instance_id: expect.any(String), setor_id: setor.id, status: 'disconnected', phone_number: null, proxy_configured: false, reused: false },
    });
    const second = await request(api.app).post('/v1/channel/instances').set(authed(key)).send({ setor_id: setor.id });
    expect(second.status).toBe(201);
    expect(second.body.data).toMatchObject({ instance_id: first.body.data.instance_id, reused: true });
  });

  it('rejects bad input, missing scopes and keys, and another company’s boxes', async () => {
    const setor = await api.createSetor(companyId);
    const post = (body: unknown, headers = authed(key)) => request(api.app).post('/v1/channel/instances').set(headers).send(body as object);
    expect((await post({})).body.error).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect((await post({ setor_id: 'not-a-uuid' })).status).toBe(400);
    expect((await post({ setor_id: setor.id, extra: 1 })).status).toBe(400);
    expect((await post({ setor_id: setor.id }, authed(otherKey))).status).toBe(404);
    expect((await post({ setor_id: crypto.randomUUID() })).body.error.code).toBe('NOT_FOUND');
    const noScope = await api.createKey(companyId, { scopes: ['messages:write'], rpm: 100_000 });
    const forbidden = await post({ setor_id: setor.id }, authed(noScope));
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.code).toBe('FORBIDDEN');
    expect((await request(api.app).get('/v1/channel/instances')).status).toBe(401);
  });

  it('shows a real QR image, then connecting and connected with a Brazilian number, with channel.session_connected', async () => {
    const { setor, instanceId } = await newInstance();
    const qr = await request(api.app).get(`/v1/channel/instances/${instanceId}/qr`).set(authed(key));
    expect(qr.status).toBe(200);
    expect(qr.body.data).toMatchObject({ instance_id: instanceId, qr_code: expect.stringMatching(/^data:image\/png;base64,/), status: 'disconnected' });
    expect(qr.body.data.expires_in).toBeGreaterThan(55);
    expect(qr.body.data.expires_in).toBeLessThanOrEqual(60);
    const png = Buffer.from(qr.body.data.qr_code.split(',')[1], 'base64');
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    // Within the window the same code comes back (null once the simulated phone has already connected).
    const again = await request(api.app).get(`/v1/channel/instances/${instanceId}/qr`).set(authed(key));
    expect([qr.body.data.qr_code, null]).toContain(again.body.data.qr_code);

    const seen = new Set<string>();
    const final = await readUntil(
      async () => {
        const res = await request(api.app).get(`/v1/channel/instances/${instanceId}/status`).set(authed(key));
        seen.add(res.body.data.status);
        return res;
      },
      (r) => r.body.data.status === 'connected',
    );
    expect(final.body.data).toEqual({ instance_id: instanceId, status: 'connected', phone_number: expect.stringMatching(/^\+55119\d{8}$/) });
    expect(seen.has('connected')).toBe(true);
    expect(await events('channel.session_connected', setor.id)).toHaveLength(1);

    const refused = await request(api.app).get(`/v1/channel/instances/${instanceId}/qr`).set(authed(key));
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'INVALID_TRANSITION', details: { status: 'connected' } });
  });

  it('lists the company instances, paginated, and shows one', async () => {
    const { instanceId } = await newInstance('Lista');
    const list = await request(api.app).get('/v1/channel/instances?limit=100').set(authed(key));
    expect(list.status).toBe(200);
    expect(list.body.data).toMatchObject({ page: 1, limit: 100 });
    expect(list.body.data.items.find((i: { instance_id: string }) => i.instance_id === instanceId)).toMatchObject({
      setor_nome: 'Lista',
      channel_type: 'qr',
      status: 'disconnected',
    });
    expect((await request(api.app).get('/v1/channel/instances?limit=101').set(authed(key))).status).toBe(400);
    expect((await request(api.app).get('/v1/channel/instances').set(authed(otherKey))).body.data.total).toBe(0);
    expect((await request(api.app).get(`/v1/channel/instances/${instanceId}`).set(authed(key))).body.data.instance_id).toBe(instanceId);
  });

  it('answers 404 for another company’s instance on every instance route', async () => {
    const { instanceId } = await newInstance();
    const other = authed(otherKey);
    const calls = [
      request(api.app).get(`/v1/channel/instances/${instanceId}`).set(other),
      request(api.app).get(`/v1/channel/instances/${instanceId}/qr`).set(other),
      request(api.app).get(`/v1/channel/instances/${instanceId}/status`).set(other),
      request(api.app).post(`/v1/channel/instances/${instanceId}/disconnect`).set(other),
      request(api.app).post(`/v1/channel/instances/${instanceId}/profile/refresh`).set(other),
      request(api.app).get('/v1/channel/instances/not-an-id/qr').set(authed(key)),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
  });

  it('reports health per box, with history on request, and validates the window', async () => {
    const { setor, instanceId } = await newInstance('Saúde');
    const before = await request(api.app).get('/v1/channel/instances/health').set(authed(key));
    expect(before.status).toBe(200);
    const item = (res: request.Response) => res.body.data.items.find((i: { setor_id: string }) => i.setor_id === setor.id);
    expect(item(before)).toMatchObject({ setor_nome: 'Saúde', phone_number: null, health: { state: 'unknown', connected: false } });
    expect(item(before).history).toBeUndefined();

    await connect(instanceId);
    await api.container.get(CheckChannelHealth).execute();
    const after = await request(api.app).get('/v1/channel/instances/health?include_history=true&history_minutes=5').set(authed(key));
    expect(item(after)).toMatchObject({
      instance_id: instanceId,
      phone_number: expect.stringMatching(/^\+55/),
      health: { state: 'healthy', connected: true, responding: true, consecutiveFailures: 0, error: null, lastCheckedAt: expect.any(String), lastOkAt: expect.any(String) },
      history: [{ state: 'healthy', connected: true, responding: true, error: null, checkedAt: expect.any(String) }],
    });
    for (const query of ['history_minutes=0', 'history_minutes=1441', 'history_minutes=abc', 'include_history=maybe', 'history_minutes=1.5']) {
      const res = await request(api.app).get(`/v1/channel/instances/health?${query}`).set(authed(key));
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
    }
    expect((await request(api.app).get('/v1/channel/instances/health?history_minutes=1440').set(authed(key))).status).toBe(200);
  });

  it('disconnects, recording channel.session_disconnected, and is idempotent', async () => {
    const { setor, instanceId } = await newInstance();
    await connect(instanceId);
    const res = await request(api.app).post(`/v1/channel/instances/${instanceId}/disconnect`).set(authed(key));
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ instance_id: instanceId, status: 'disconnected', was_connected: true, disconnected_at: expect.any(String) });
    const status = await request(api.app).get(`/v1/channel/instances/${instanceId}/status`).set(authed(key));
    expect(status.body.data).toMatchObject({ status: 'disconnected', phone_number: null });
    const again = await request(api.app).post(`/v1/channel/instances/${instanceId}/disconnect`).set(authed(key));
    expect(again.body.data.was_connected).toBe(false);
    const disconnected = await events('channel.session_disconnected', setor.id);
    expect(disconnected).toHaveLength(1);
    expect(disconnected[0]?.data).toMatchObject({ reason: 'user', instanceId });
  });

  it('refreshes the profile of a connected number and refuses a disconnected one', async () => {
    const { instanceId } = await newInstance('Perfil');
    expect((await request(api.app).post(`/v1/channel/instances/${instanceId}/profile/refresh`).set(authed(key))).status).toBe(409);
    await connect(instanceId);
    const res = await request(api.app).post(`/v1/channel/instances/${instanceId}/profile/refresh`).set(authed(key));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ instance_id: instanceId, profile_name: 'Perfil', status: 'connected' });
  });

  it('updates names and photos of up to 20 numbers, item by item, and validates the batch', async () => {
    const { setor, instanceId } = await newInstance('Lote');
    const phone = await connect(instanceId);
    const batch = await request(api.app)
      .post('/v1/channel/instances/profile/batch')
      .set(authed(key))
      .send({
        items: [
          { setor_id: setor.id, name: 'Loja Lote' },
          { phone_number: phone, picture_url: 'https://cdn.example.com/logo.png' },
          { setor_id: crypto.randomUUID(), name: 'Ninguém' },
        ],
      });
    expect(batch.status).toBe(200);
    expect(batch.body.data).toMatchObject({ updated: 2, failed: 1 });
    expect(batch.body.data.results[1]).toMatchObject({ success: true, profile_name: 'Loja Lote', profile_picture_url: 'https://cdn.example.com/logo.png' });
    expect(batch.body.data.results[2]).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });

    const pictures = await request(api.app)
      .post('/v1/channel/instances/profile-picture/batch')
      .set(authed(key))
      .send({ items: [{ setor_id: setor.id, picture_url: 'https://cdn.example.com/new.png' }] });
    expect(pictures.body.data).toMatchObject({ updated: 1, results: [{ profile_picture_url: 'https://cdn.example.com/new.png' }] });

    const bad = [
      { items: [] },
      { items: Array.from({ length: 21 }, () => ({ setor_id: setor.id, name: 'x' })) },
      { items: [{ setor_id: setor.id }] },
      { items: [{ setor_id: setor.id, phone_number: phone, name: 'x' }] },
      { items: [{ setor_id: setor.id, picture_url: 'http://insecure.example.com/a.png' }] },
    ];
    for (const body of bad) {
      const res = await request(api.app).post('/v1/channel/instances/profile/batch').set(authed(key)).send(body);
      expect(res.status).toBe(400);
    }
    const namesOnLegacy = await request(api.app)
      .post('/v1/channel/instances/profile-picture/batch')
      .set(authed(key))
      .send({ items: [{ setor_id: setor.id, name: 'x', picture_url: 'https://cdn.example.com/a.png' }] });
    expect(namesOnLegacy.status).toBe(400);
  });

  it('lets the operator read the simulator outbox, newest first, filtered', async () => {
    const { setor, instanceId } = await newInstance('Outbox');
    await connect(instanceId);
    const repos = api.container.get<ServiceRepositories>(Repositories);
    const instance = (await repos.channelInstances.findBySetor(setor.id))!;
    const box = (await repos.setores.findById(setor.id))!;
    const gateway = api.container.get<ChannelGateway>(ChannelGateway);
    const send = (to: string, text: string) =>
      gateway.send({ setor: box, instance, mode: 'test', to, content: { kind: 'text', text }, clientMessageId: crypto.randomUUID() });
    await send('+5511955550002', 'primeira');
    await send('+5511955551234', 'segunda');
    const res = await request(api.app).get(`/admin/v1/simulator/messages?setor_id=${setor.id}`).set(api.adminAuth);
    expect(res.status).toBe(200);
    expect(res.body.data.items.map((m: { text: string }) => m.text)).toEqual(['segunda', 'primeira']);
    expect(res.body.data.items[1]).toEqual({
      id: expect.any(String),
      company_id: companyId,
      setor_id: setor.id,
      from: instance.phoneNumber,
      to: '+5511955550002',
      kind: 'text',
      text: 'primeira',
      media_url: null,
      media_type: null,
      media_filename: null,
      template_name: null,
      payload: { kind: 'text', text: 'primeira' },
      outcome: 'failed',
      error_code: 'RECIP_BLOCKED',
      sent_at: expect.any(String),
    });
    const filtered = await request(api.app).get('/admin/v1/simulator/messages?to=5511955551234&limit=1').set(api.adminAuth);
    expect(filtered.body.data.items.map((m: { text: string }) => m.text)).toEqual(['segunda']);
    expect((await request(api.app).get('/admin/v1/simulator/messages?limit=501').set(api.adminAuth)).status).toBe(400);
    expect((await request(api.app).get('/admin/v1/simulator/messages?setor_id=x').set(api.adminAuth)).status).toBe(400);
    expect((await request(api.app).get('/admin/v1/simulator/messages').set(authed(key))).status).toBe(401);
  });
});
