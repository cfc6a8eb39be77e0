import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestApi, type TestApi, type TestCompany } from '../testing/test-api.js';

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

/**
 * Phone numbers in every route that takes one: national numbers are read in the company's
 * `default_country` (BR unless set), and a number its country does not issue is 400 INVALID_NUMBER.
 */
describe('phone numbers and the company default country', () => {
  let api: TestApi;
  let company: TestCompany;
  let key: string;
  let setor: { id: string };
  let boxPhone: string;

  beforeAll(async () => {
    api = await createTestApi();
    // Sends at any hour: the campaign would otherwise meet the default safe hours when the suite runs in the evening.
    company = await api.createCompany({ company_rpm: 100_000, safe_hours: { start: 0, end: 24 } });
    key = await api.createKey(company.id, { scopes: ['*'], mode: 'live', rpm: 100_000 });
    setor = await api.createSetor(company.id, { nome: 'Nacional' });
    boxPhone = (await api.connectSetor(company.id, setor.id)).phoneNumber!;
  });
  afterAll(async () => api?.close());

  const send = (phone: string) => request(api.app).post('/v1/messages').set(bearer(key)).send({ phone, message: { text: 'Olá' } });
  const expectInvalid = (res: request.Response, field = 'phone') => {
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_NUMBER', details: { field } });
  };

  it('gives companies Brazil as default country, settable and validated through the admin API', async () => {
    expect(company.default_country).toBe('BR');
    const pt = await request(api.app).post('/admin/v1/companies').set(api.adminAuth).send({ name: 'Lisboa', default_country: 'PT' });
    expect(pt.status).toBe(201);
    expect(pt.body.data.default_country).toBe('PT');
    const read = await request(api.app).get(`/admin/v1/companies/${pt.body.data.id}`).set(api.adminAuth);
    expect(read.body.data.default_country).toBe('PT');
    const patched = await request(api.app).patch(`/admin/v1/companies/${pt.body.data.id}`).set(api.adminAuth).send({ default_country: 'US' });
    expect(patched.status).toBe(200);
    expect(patched.body.data.default_country).toBe('US');
    for (const default_country of ['br', 'BRA', 'XX', '', 55]) {
      const res = await request(api.app).post('/admin/v1/companies').set(api.adminAuth).send({ name: 'Erro', default_country });
      expect(res.status).toBe(400);
    }
    expect((await request(api.app).patch(`/admin/v1/companies/${pt.body.data.id}`).set(api.adminAuth).send({ default_country: 'ZZ' })).status).toBe(400);
  });

  it('sends to a national number in the company country and refuses numbers no country issues', async () => {
    const national = await send('11987650101');
    expect(national.status).toBe(201);
    expect(national.body.data.phone).toBe('+5511987650101');
    expect((await send('(11) 98765-0102')).body.data.phone).toBe('+5511987650102');
    expect((await send('5511987650103')).body.data.phone).toBe('+5511987650103');
    expect((await send('+55 11 8765-0104')).body.data.phone).toBe('+551187650104');
    expectInvalid(await send('987654321'));
    expectInvalid(await send('+987654321'));
    expectInvalid(await send('+55 98 7654321'));
    const first = await request(api.app).post('/v1/messages/first-contact').set(bearer(key)).send({ phone: '11 98765-0105', message: 'Oi' });
    expect(first.status).toBe(201);
    expect(first.body.data.phone).toBe('+5511987650105');
    expectInvalid(await request(api.app).post('/v1/messages/first-contact').set(bearer(key)).send({ phone: '987654321', message: 'Oi' }));
  });

  it('reads national numbers in the country the company sets', async () => {
    const { company: us, key: usKey, setor: box } = await api.createTenant({
      settings: { company_rpm: 100_000, default_country: 'US' },
      key: { scopes: ['*'], mode: 'live', rpm: 100_000 },
      setor: { nome: 'EUA' },
    });
    const sent = await request(api.app).post('/v1/messages').set(bearer(usKey)).send({ phone: '(650) 253-0000', message: { text: 'Hi' } });
    expect(sent.status).toBe(201);
    expect(sent.body.data.phone).toBe('+16502530000');
    expectInvalid(await request(api.app).post('/v1/messages').set(bearer(usKey)).send({ phone: '11987654321', message: { text: 'Oi' } }));
  });

  it('takes national numbers in campaign recipients and refuses invalid ones', async () => {
    const ok = await request(api.app)
      .post('/v1/campaigns')
      .set(bearer(key))
      .send({ name: 'Nacional', recipients: [{ phone: '11 98765-0201' }, { phone: '+5511987650202' }], message: { text: 'Olá' } });
    expect(ok.status).toBe(202);
    const bad = await request(api.app)
      .post('/v1/campaigns')
      .set(bearer(key))
      .send({ name: 'Inválida', recipients: [{ phone: '11 98765-0203' }, { phone: '987654321' }], message: { text: 'Olá' } });
    expectInvalid(bad, 'recipients[1].phone');
  });

  it('takes national numbers in the simulator inbound and in the profile batch', async () => {
    const inbound = await request(api.app).post('/admin/v1/simulator/inbound').set(api.adminAuth).send({ setor_id: setor.id, from: '11 98765-0301', text: 'Oi' });
    expect(inbound.status).toBe(201);
    expect(inbound.body.data.from).toBe('+5511987650301');
    expectInvalid(await request(api.app).post('/admin/v1/simulator/inbound').set(api.adminAuth).send({ setor_id: setor.id, from: '987654321', text: 'Oi' }), 'from');

    const national = boxPhone.replace(/^\+55/, '');
    const batch = await request(api.app).post('/v1/channel/instances/profile/batch').set(bearer(key)).send({ items: [{ phone_number: national, name: 'Loja' }] });
    expect(batch.status).toBe(200);
    expect(batch.body.data.results[0]).toMatchObject({ success: true, phone_number: boxPhone, profile_name: 'Loja' });
    const invalid = await request(api.app).post('/v1/channel/instances/profile/batch').set(bearer(key)).send({ items: [{ phone_number: '987654321', name: 'Loja' }] });
    expectInvalid(invalid, 'items[0].phone_number');
  });
});
