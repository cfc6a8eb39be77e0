import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ContainerModule } from 'inversify';
import request from 'supertest';
import { ChannelsSettings, cloudApiSignature, type ChannelsConfig } from '@carteiro/channels';
import { FakeCloudApiServer, FakeEvolutionServer } from '@carteiro/channels/testing';
import { createTestApi, type TestApi } from '../testing/test-api.js';

/** The counts a provider webhook answered (`data` of the envelope). */
const counts = (answer: { body: unknown }) => (answer.body as { data: Record<string, number> }).data;

const QR_SECRET = 'qr-webhook-secret-0123';
const APP_SECRET = 'meta-app-secret-4567';
const VERIFY_TOKEN = 'verify-token-89';

/**
 * The providers' inbound webhooks (conversations.md §3), posted by the fake provider servers to the
 * API listening on loopback: the same inbound and receipt commands as the simulator's, behind each
 * provider's secret.
 */
describe('provider webhooks', () => {
  let api: TestApi;
  let server: Server;
  let base = '';
  const evolution = new FakeEvolutionServer();
  const cloud = new FakeCloudApiServer();

  beforeAll(async () => {
    api = await createTestApi({
      overrides: [
        new ContainerModule(({ isBound, rebind }) => {
          if (isBound(ChannelsSettings)) {
            rebind<ChannelsConfig>(ChannelsSettings).toConstantValue({
              simulatorScanDelayMs: 0,
              qrProviderWebhookSecret: QR_SECRET,
              officialAppSecret: APP_SECRET,
              officialVerifyToken: VERIFY_TOKEN,
              simulatorReceiptDelayMs: 0,
            });
          }
        }),
      ],
    });
    server = api.app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await evolution.start();
    await cloud.start();
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await evolution.stop();
    await cloud.stop();
    await api?.close();
  });

  function tenant(official?: { phone_number_id: string }) {
    return api.createTenant({
      settings: { company_rpm: 10_000 },
      key: { mode: 'live', rpm: 10_000 },
      setor: official ? { channel_type: 'official', official: { ...official, access_token: 't', waba_id: 'w' } } : undefined,
    });
  }
  const events = (companyId: string, name: string) =>
    api.database.db.selectFrom('domain_events').select(['data', 'setor_id']).where('company_id', '=', companyId).where('event', '=', name).execute();

  it('Evolution: messages.upsert is an inbound message of the instance box (push name, dedupe by key id), messages.update a receipt', async () => {
    const { company, key, setor, instance } = await tenant();
    const name = `carteiro-${instance.id}`;
    evolution.webhook = { url: `${base}/webhooks/channels/evolution`, headers: { Authorization: `Bearer ${QR_SECRET}` } };
    const first = await evolution.contactWrites(name, { from: '+5511987654300', text: 'Oi, tudo bem?', pushName: 'Joana', id: '3EB0AAA' });
    expect([first.status, first.body]).toEqual([200, { success: true, data: { batches: 1, unknown_accounts: 0, received: 1, duplicates: 0, rejected: 0, receipts: 0 } }]);
    // Evolution retries a webhook it thinks failed: the same key id changes nothing.
    expect(counts(await evolution.contactWrites(name, { from: '+5511987654300', text: 'Oi, tudo bem?', pushName: 'Joana', id: '3EB0AAA' }))).toMatchObject({ received: 0, duplicates: 1 });
    const list = await evolution.contactWrites(name, { from: '+5511987654300', text: 'Excelente', listRowId: 'csat_5' });
    expect(counts(list).received).toBe(1);
    const received = await events(company.id, 'message.received');
    expect(received.map((e) => e.data)).toEqual([
      expect.objectContaining({ from: '+5511987654300', text: 'Oi, tudo bem?', providerMessageId: '3EB0AAA', contactName: 'Joana', contentType: 'text' }),
      expect.objectContaining({ optionId: 'csat_5', contentType: 'option', text: 'Excelente' }),
    ]);
    expect(received.every((e) => e.setor_id === setor.id)).toBe(true);

    const sent = await request(api.app).post('/v1/messages').set({ Authorization: `Bearer ${key}` }).send({ phone: '+5511987654300', message: { text: 'Olá Joana' } });
    expect(sent.status).toBe(201);
    const row = await api.database.db.selectFrom('messages').select(['provider_message_id']).where('id', '=', sent.body.data.message_id).executeTakeFirstOrThrow();
    expect(counts(await evolution.ack(name, row.provider_message_id!, 'DELIVERY_ACK')).receipts).toBe(1);
    expect(counts(await evolution.ack(name, row.provider_message_id!, 'READ')).receipts).toBe(1);
    expect(counts(await evolution.ack(name, row.provider_message_id!, 'DELIVERY_ACK')).receipts).toBe(0);
    expect((await events(company.id, 'message.delivered')).length + (await events(company.id, 'message.read')).length).toBe(2);
  });

  it('Evolution: a call without the secret is 401 and does nothing; an unknown instance is acknowledged and ignored', async () => {
    const { company, instance } = await tenant();
    evolution.webhook = { url: `${base}/webhooks/channels/evolution`, headers: { Authorization: 'Bearer wrong' } };
    expect((await evolution.contactWrites(`carteiro-${instance.id}`, { from: '+5511987654301', text: 'Oi' })).status).toBe(401);
    evolution.webhook = { url: `${base}/webhooks/channels/evolution?token=${QR_SECRET}` };
    expect(counts(await evolution.contactWrites('another-instance', { from: '+5511987654301', text: 'Oi' }))).toMatchObject({ unknown_accounts: 1, received: 0 });
    expect(await events(company.id, 'message.received')).toEqual([]);
  });

  it('Cloud API: the verification answers hub.challenge; signed messages and statuses arrive, unsigned ones are 401', async () => {
    const verify = (token: string) =>
      request(api.app).get('/webhooks/channels/official').query({ 'hub.mode': 'subscribe', 'hub.verify_token': token, 'hub.challenge': '1158201444' });
    const ok = await verify(VERIFY_TOKEN);
    expect([ok.status, ok.text, ok.headers['content-type']]).toEqual([200, '1158201444', expect.stringContaining('text/plain')]);
    expect((await verify('wrong')).status).toBe(403);

    const { company, key, setor } = await tenant({ phone_number_id: '106540352242922' });
    cloud.addNumber('106540352242922', 't');
    cloud.webhook = { url: `${base}/webhooks/channels/official`, appSecret: APP_SECRET };
    const written = await cloud.customerWrites('106540352242922', { from: '5511987654302', name: 'Carlos', text: 'Quero um orçamento' });
    expect([written.status, counts(written)]).toEqual([200, { batches: 1, unknown_accounts: 0, received: 1, duplicates: 0, rejected: 0, receipts: 0 }]);
    const image = await cloud.customerWrites('106540352242922', { from: '5511987654302', image: { id: '998877', caption: 'foto' } });
    expect(counts(image).received).toBe(1);
    const received = (await events(company.id, 'message.received')).map((e) => e.data);
    expect(received).toEqual([
      expect.objectContaining({ from: '+5511987654302', contactName: 'Carlos', text: 'Quero um orçamento', providerMessageId: written.id }),
      expect.objectContaining({ contentType: 'image', mediaUrl: 'media:998877', text: 'foto' }),
    ]);
    expect(received.every((d) => d.ticketId === received[0]!.ticketId)).toBe(true);

    const sent = await request(api.app).post('/v1/messages').set({ Authorization: `Bearer ${key}` }).send({ setor_id: setor.id, phone: '+5511987654302', message: { text: 'Claro!' } });
    expect(sent.status).toBe(201);
    const row = await api.database.db.selectFrom('messages').select(['provider_message_id']).where('id', '=', sent.body.data.message_id).executeTakeFirstOrThrow();
    expect(counts(await cloud.messageStatus('106540352242922', row.provider_message_id!, 'read')).receipts).toBe(1);
    expect((await events(company.id, 'message.delivered')).map((e) => e.data)).toEqual([expect.objectContaining({ messageId: sent.body.data.message_id, status: 'delivered' })]);

    const body = JSON.stringify({ object: 'whatsapp_business_account', entry: [] });
    const unsigned = await request(api.app).post('/webhooks/channels/official').set('content-type', 'application/json').send(body);
    expect(unsigned.status).toBe(401);
    const forged = await request(api.app).post('/webhooks/channels/official').set('content-type', 'application/json').set('x-hub-signature-256', cloudApiSignature(body, 'other')).send(body);
    expect(forged.status).toBe(401);
    const signed = await request(api.app).post('/webhooks/channels/official').set('content-type', 'application/json').set('x-hub-signature-256', cloudApiSignature(body, APP_SECRET)).send(body);
    expect([signed.status, signed.body.data.batches]).toEqual([200, 0]);
  });
});
