import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestApi, type TestApi, type TestSetorOptions } from '../testing/test-api.js';

/**
 * Single sends end to end through the real channel gateway (the simulator): what the
 * simulator outbox shows is exactly what the channel received, and its magic recipients
 * (operations.md §3) give the specified answers.
 */
describe('/v1/messages through the simulator', () => {
  let api: TestApi;
  const authed = (key: string) => ({ Authorization: `Bearer ${key}` });
  /** A POST of the client API with this key. */
  const post = (key: string, path: string, body: object) => request(api.app).post(path).set(authed(key)).send(body);

  beforeAll(async () => {
    api = await createTestApi();
  });
  afterAll(async () => api?.close());

  /** A company with a live sending key and one connected box (a QR box unless `box` says otherwise). */
  function tenant(settings: Record<string, unknown> = {}, box: TestSetorOptions = {}) {
    return api.createTenant({ settings: { company_rpm: 10_000, ...settings }, key: { mode: 'live', scopes: ['messages:write'], rpm: 10_000 }, setor: box });
  }
  const outbox = async (to: string) =>
    (await request(api.app).get('/admin/v1/simulator/messages').query({ to, limit: 50 }).set(api.adminAuth)).body.data.items as {
      id: string;
      kind: string;
      text: string | null;
      media_url: string | null;
      payload: Record<string, unknown>;
      outcome: string;
      setor_id: string;
    }[];

  it('shows two items for after_text (text, then the media) and one captioned item for inline', async () => {
    const { key } = await tenant();
    const to = '+5511955551234';
    const res = await post(key, '/v1/messages', { phone: to, message: { text: 'Veja', media_url: 'https://cdn.test/a.png', media_type: 'image', media_delivery: 'after_text' } });
    expect(res.status).toBe(201);
    const items = await outbox(to);
    // Newest first.
    expect(items.map((i) => i.kind)).toEqual(['image', 'text']);
    expect(items[1]?.text).toBe('Veja');
    expect(items[0]?.media_url).toBe('https://cdn.test/a.png');

    const to2 = '+5511955551235';
    await post(key, '/v1/messages', { phone: to2, message: { text: 'Legenda', media_url: 'https://cdn.test/b.png', media_type: 'image' } });
    const inline = await outbox(to2);
    expect(inline).toHaveLength(1);
    expect(inline[0]).toMatchObject({ kind: 'image', text: 'Legenda' });
  });

  it('sends a list to a QR box as one numbered text item', async () => {
    const { key } = await tenant();
    const to = '+5511955551236';
    const res = await post(key, '/v1/messages/interactive', { phone: to, interactive: { type: 'list', body: { text: 'Escolha' }, action: { sections: [{ rows: [{ id: 'a', title: 'Alfa' }, { id: 'b', title: 'Beta' }] }] } } });
    expect(res.status).toBe(201);
    const items = await outbox(to);
    expect(items).toHaveLength(1);
    expect(items[0]?.kind).toBe('text');
    expect(items[0]?.text).toMatch(/^Escolha[\s\S]*1\. Alfa\n2\. Beta$/);
  });

  it('answers 502 PROVIDER_ERROR for a number ending 0004 and gives the unit back', async () => {
    const { company, key } = await tenant({ modality: 'avulso', avulso_balance: 2 });
    const res = await post(key, '/v1/messages', { phone: '+5511955550004', message: { text: 'x' } });
    expect([res.status, res.body.error.code]).toEqual([502, 'PROVIDER_ERROR']);
    const read = await request(api.app).get(`/admin/v1/companies/${company.id}`).set(api.adminAuth);
    expect(read.body.data.avulso_balance).toBe(2);
  });

  it('answers 422 for a recipient failure (0001) and disconnects a banned sender (0005)', async () => {
    const { key } = await tenant({ modality: 'avulso', avulso_balance: 5 });
    const recipient = await post(key, '/v1/messages', { phone: '+5511955550001', message: { text: 'x' } });
    expect([recipient.status, recipient.body.error.details.error_code]).toEqual([422, 'RECIP_NOT_WHATSAPP']);
    const banned = await post(key, '/v1/messages', { phone: '+5511955550005', message: { text: 'x' } });
    expect([banned.status, banned.body.error.details.error_code]).toEqual([422, 'SENDER_BANNED']);
    const next = await post(key, '/v1/messages', { phone: '+5511955551237', message: { text: 'x' } });
    expect([next.status, next.body.error.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('refuses free text outside the window of an official box and delivers it after an inbound message', async () => {
    const { key, setor: official } = await tenant({}, { channel_type: 'official', official: { phone_number_id: '1', access_token: 't', waba_id: 'w' } });
    const to = '+5511955551238';
    const closed = await post(key, '/v1/messages', { phone: to, message: { text: 'Oi' } });
    expect([closed.status, closed.body.error.code]).toEqual([422, 'WINDOW_EXPIRED']);
    await request(api.app).post('/admin/v1/simulator/inbound').set(api.adminAuth).send({ setor_id: official.id, from: to, text: 'Olá' }).expect(201);
    const open = await post(key, '/v1/messages', { phone: to, message: { text: 'Oi' } });
    expect(open.status).toBe(201);
    expect((await outbox(to)).map((i) => i.kind)).toEqual(['text']);
  });

  it('tells the channel about an edit, a reaction and a delete: the outbox shows one item for each', async () => {
    const { key, setor } = await tenant();
    const to = '+5511955551239';
    const sent = await post(key, '/v1/messages', { phone: to, message: { text: 'Oi' } });
    expect(sent.status).toBe(201);
    const id = sent.body.data.message_id as string;
    const providerMessageId = (await outbox(to))[0]?.id;

    const edit = await request(api.app).patch(`/v1/messages/${id}`).set(authed(key)).send({ text: 'Olá!' });
    expect([edit.status, edit.body.data.text]).toEqual([200, 'Olá!']);
    const react = await post(key, `/v1/messages/${id}/reaction`, { emoji: '👍' });
    expect([react.status, react.body.data.reaction]).toEqual([200, '👍']);
    const del = await request(api.app).delete(`/v1/messages/${id}`).set(authed(key));
    expect([del.status, del.body.data.deleted]).toEqual([200, true]);
    // Repeating the delete answers the same and tells the channel nothing more.
    expect((await request(api.app).delete(`/v1/messages/${id}`).set(authed(key))).status).toBe(200);

    const items = await outbox(to);
    expect(items.map((i) => [i.kind, i.text, i.payload, i.outcome, i.setor_id])).toEqual([
      ['text', null, { operation: 'delete', providerMessageId }, 'sent', setor.id],
      ['text', '👍', { operation: 'reaction', providerMessageId, emoji: '👍' }, 'sent', setor.id],
      ['text', 'Olá!', { operation: 'edit', providerMessageId, text: 'Olá!' }, 'sent', setor.id],
      ['text', 'Oi', { kind: 'text', text: 'Oi' }, 'sent', setor.id],
    ]);
  });

  it('reacts to a message of an official box inside its window, and refuses to edit or delete it', async () => {
    const { key, setor: official } = await tenant({}, { channel_type: 'official', official: { phone_number_id: '2', access_token: 't', waba_id: 'w' } });
    const to = '+5511955551240';
    await request(api.app).post('/admin/v1/simulator/inbound').set(api.adminAuth).send({ setor_id: official.id, from: to, text: 'Olá' }).expect(201);
    const sent = await post(key, '/v1/messages', { phone: to, message: { text: 'Oi' } });
    const id = sent.body.data.message_id as string;
    const react = await post(key, `/v1/messages/${id}/reaction`, { emoji: '❤️' });
    expect([react.status, react.body.data.reaction]).toEqual([200, '❤️']);
    const edit = await request(api.app).patch(`/v1/messages/${id}`).set(authed(key)).send({ text: 'x' });
    expect([edit.status, edit.body.error.code]).toEqual([422, 'UNPROCESSABLE']);
    const del = await request(api.app).delete(`/v1/messages/${id}`).set(authed(key));
    expect([del.status, del.body.error.code]).toEqual([422, 'UNPROCESSABLE']);
    expect((await outbox(to)).map((i) => i.payload.operation ?? i.kind)).toEqual(['reaction', 'text']);
  });
});
