import { describe, expect, it } from '@jest/globals';
import { cloudApiSignature, parseCloudApiWebhook, verifyCloudApiSignature } from '../official/cloud-api-webhook.js';
import { parseEvolutionWebhook } from '../qr-provider/evolution-webhook.js';

const upsert = (data: unknown, event = 'messages.upsert') => ({ event, instance: 'carteiro-x', data });

describe('parseEvolutionWebhook', () => {
  it('reads texts, captions, list and button replies of contacts, with the push name and key id', () => {
    const batch = parseEvolutionWebhook(
      upsert([
        { key: { remoteJid: '5511987654321@s.whatsapp.net', fromMe: false, id: 'A1' }, pushName: 'Maria', message: { conversation: 'Oi' } },
        { key: { remoteJid: '5511987654321@s.whatsapp.net', fromMe: false, id: 'A2' }, message: { extendedTextMessage: { text: 'Link https://x' } } },
        { key: { remoteJid: '5511987654321@s.whatsapp.net', fromMe: false, id: 'A3' }, message: { imageMessage: { url: 'https://mmg/x.enc', caption: 'foto' } } },
        { key: { remoteJid: '5511987654321@s.whatsapp.net', fromMe: false, id: 'A4' }, message: { listResponseMessage: { title: 'Excelente', singleSelectReply: { selectedRowId: 'csat_5' } } } },
        { key: { remoteJid: '5511987654321@s.whatsapp.net', fromMe: false, id: 'A5' }, message: { buttonsResponseMessage: { selectedButtonId: 'sim', selectedDisplayText: 'Sim' } } },
      ]),
    );
    expect(batch).toEqual({
      provider: 'qr',
      account: 'carteiro-x',
      receipts: [],
      inbound: [
        { from: '+5511987654321', name: 'Maria', text: 'Oi', mediaUrl: null, mediaType: null, optionId: null, providerMessageId: 'A1' },
        { from: '+5511987654321', name: null, text: 'Link https://x', mediaUrl: null, mediaType: null, optionId: null, providerMessageId: 'A2' },
        { from: '+5511987654321', name: null, text: 'foto', mediaUrl: 'https://mmg/x.enc', mediaType: 'image', optionId: null, providerMessageId: 'A3' },
        { from: '+5511987654321', name: null, text: 'Excelente', mediaUrl: null, mediaType: null, optionId: 'csat_5', providerMessageId: 'A4' },
        { from: '+5511987654321', name: null, text: 'Sim', mediaUrl: null, mediaType: null, optionId: 'sim', providerMessageId: 'A5' },
      ],
    });
  });

  it("skips the box's own messages, groups, broadcasts and contentless messages; MESSAGES_UPSERT is the same event", () => {
    const batch = parseEvolutionWebhook(
      upsert(
        [
          { key: { remoteJid: '5511987654321@s.whatsapp.net', fromMe: true, id: 'B1' }, message: { conversation: 'eco' } },
          { key: { remoteJid: '120363@g.us', fromMe: false, id: 'B2' }, message: { conversation: 'grupo' } },
          { key: { remoteJid: 'status@broadcast', fromMe: false, id: 'B3' }, message: { conversation: 'status' } },
          { key: { remoteJid: '5511987654321@s.whatsapp.net', fromMe: false, id: 'B4' }, message: { reactionMessage: { text: '👍' } } },
        ],
        'MESSAGES_UPSERT',
      ),
    );
    expect(batch!.inbound).toEqual([]);
  });

  it('turns acks into receipts (3 delivered, 4 and 5 read, DELIVERY_ACK, READ); server acks and other events carry nothing', () => {
    const update = (data: unknown) => parseEvolutionWebhook(upsert(data, 'messages.update'))!.receipts.map((r) => [r.providerMessageId, r.status]);
    expect(update({ keyId: 'C1', fromMe: true, status: 'DELIVERY_ACK' })).toEqual([['C1', 'delivered']]);
    expect(update([{ keyId: 'C2', fromMe: true, status: 'READ' }, { key: { id: 'C3', fromMe: true }, update: { status: 4 } }, { key: { id: 'C4' }, status: 5 }])).toEqual([
      ['C2', 'read'],
      ['C3', 'read'],
      ['C4', 'read'],
    ]);
    expect(update([{ keyId: 'C5', fromMe: true, status: 'SERVER_ACK' }, { keyId: 'C6', fromMe: false, status: 'READ' }])).toEqual([]);
    expect(parseEvolutionWebhook({ event: 'connection.update', instance: 'carteiro-x', data: { state: 'open' } })).toBeNull();
    expect(parseEvolutionWebhook({ event: 'messages.upsert', data: {} })).toBeNull();
  });
});

describe('parseCloudApiWebhook', () => {
  const notification = (value: Record<string, unknown>, phoneNumberId = '106') => ({
    object: 'whatsapp_business_account',
    entry: [{ id: 'WABA', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { phone_number_id: phoneNumberId }, ...value } }] }],
  });

  it('reads messages with the profile name, media by id, interactive replies; statuses as receipts', () => {
    const [batch] = parseCloudApiWebhook(
      notification({
        contacts: [{ profile: { name: 'Carlos' }, wa_id: '5511987654302' }],
        messages: [
          { from: '5511987654302', id: 'wamid.1', type: 'text', text: { body: 'Oi' } },
          { from: '5511987654302', id: 'wamid.2', type: 'document', document: { id: '77', caption: 'boleto' } },
          { from: '5511987654302', id: 'wamid.3', type: 'interactive', interactive: { type: 'list_reply', list_reply: { id: 'csat_4', title: 'Bom' } } },
          { from: '5511987654302', id: 'wamid.4', type: 'sticker', sticker: { id: '1' } },
        ],
        statuses: [
          { id: 'wamid.out1', status: 'sent', timestamp: '1700000000' },
          { id: 'wamid.out1', status: 'delivered', timestamp: '1700000001' },
          { id: 'wamid.out2', status: 'read', timestamp: '1700000002' },
        ],
      }),
    );
    expect(batch!.account).toBe('106');
    expect(batch!.inbound).toEqual([
      { from: '+5511987654302', name: 'Carlos', text: 'Oi', mediaUrl: null, mediaType: null, optionId: null, providerMessageId: 'wamid.1' },
      { from: '+5511987654302', name: 'Carlos', text: 'boleto', mediaUrl: 'media:77', mediaType: 'document', optionId: null, providerMessageId: 'wamid.2' },
      { from: '+5511987654302', name: 'Carlos', text: 'Bom', mediaUrl: null, mediaType: null, optionId: 'csat_4', providerMessageId: 'wamid.3' },
    ]);
    expect(batch!.receipts).toEqual([
      { providerMessageId: 'wamid.out1', status: 'delivered', at: new Date(1_700_000_001_000) },
      { providerMessageId: 'wamid.out2', status: 'read', at: new Date(1_700_000_002_000) },
    ]);
  });

  it('ignores other fields and malformed bodies', () => {
    expect(parseCloudApiWebhook({ object: 'whatsapp_business_account', entry: [{ changes: [{ field: 'account_update', value: {} }] }] })).toEqual([]);
    expect(parseCloudApiWebhook(null)).toEqual([]);
    expect(parseCloudApiWebhook('text')).toEqual([]);
  });

  it('verifies X-Hub-Signature-256 over the raw body', () => {
    const raw = Buffer.from('{"object":"whatsapp_business_account"}');
    expect(verifyCloudApiSignature(raw, cloudApiSignature(raw, 'secret'), 'secret')).toBe(true);
    expect(verifyCloudApiSignature(raw, cloudApiSignature(raw, 'other'), 'secret')).toBe(false);
    expect(verifyCloudApiSignature(Buffer.from(`${raw} `), cloudApiSignature(raw, 'secret'), 'secret')).toBe(false);
    expect(verifyCloudApiSignature(raw, undefined, 'secret')).toBe(false);
    expect(verifyCloudApiSignature(raw, 'sha256=zz', 'secret')).toBe(false);
  });
});
