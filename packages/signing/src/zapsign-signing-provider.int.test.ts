import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FakeZapSignServer } from './testing/index.js';
import { ZapSignSigningProvider } from './zapsign-signing-provider.js';

describe('ZapSignSigningProvider against a fake ZapSign', () => {
  const server = new FakeZapSignServer('zs-api-token');
  let provider: ZapSignSigningProvider;
  let baseUrl: string;
  const pdf = new TextEncoder().encode('%PDF-1.4 contrato');
  const request = (externalId: string) => ({
    externalId,
    title: 'Prestação de serviços',
    pdf,
    signers: [
      { id: 'signer-1', name: 'Joana', phone: '+5511987650300' },
      { id: 'signer-2', name: 'Sócio', phone: '+5511987650301' },
    ],
    expiresAt: new Date('2026-04-10T00:00:00.000Z'),
  });

  beforeAll(async () => {
    baseUrl = await server.start();
    provider = new ZapSignSigningProvider({ baseUrl, apiToken: 'zs-api-token', webhookSecret: 's3cr3t', webhookHeader: 'X-Carteiro-Secret' });
  });
  afterAll(() => server.stop());

  it('creates the document with the PDF, our ids and no ZapSign emails, and answers each signer\'s link', async () => {
    const envelope = await provider.createEnvelope(request('contract-1'));
    const doc = server.byExternalId('contract-1')!;
    expect(envelope.ref).toBe(doc.token);
    expect(doc.pdfBytes).toBe(pdf.byteLength);
    expect(envelope.signers).toEqual([
      { id: 'signer-1', ref: doc.signers[0]!.token, signUrl: doc.signers[0]!.sign_url },
      { id: 'signer-2', ref: doc.signers[1]!.token, signUrl: doc.signers[1]!.sign_url },
    ]);
    const sent = server.requests.find((r) => r.method === 'POST')!.body as Record<string, unknown>;
    expect(sent).toMatchObject({ external_id: 'contract-1', disable_signer_emails: true, signers: [{ external_id: 'signer-1', phone_country: '55', phone_number: '11987650300', send_automatic_whatsapp: false }, {}] });
  });

  it('reads the status, cancels by deleting (twice is fine), and fails as PROVIDER_ERROR', async () => {
    const envelope = await provider.createEnvelope(request('contract-2'));
    server.act(envelope.ref, 'signer-1', 'signed', new Date('2026-03-11T10:00:00.000Z'));
    const status = await provider.getStatus(envelope.ref);
    expect(status.status).toBe('pending');
    expect(status.signers).toEqual([
      { id: 'signer-1', ref: envelope.signers[0]!.ref, status: 'signed', at: new Date('2026-03-11T10:00:00.000Z'), reason: null },
      { id: 'signer-2', ref: envelope.signers[1]!.ref, status: 'pending', at: null, reason: null },
    ]);
    await provider.cancelEnvelope(envelope.ref);
    await provider.cancelEnvelope(envelope.ref);
    expect(server.docs.get(envelope.ref)!.deleted).toBe(true);
    expect((await provider.getStatus(envelope.ref)).status).toBe('cancelled');
    server.failCreates = 1;
    await expect(provider.createEnvelope(request('contract-3'))).rejects.toMatchObject({ code: 'PROVIDER_ERROR' });
    const wrongToken = new ZapSignSigningProvider({ baseUrl, apiToken: 'bad', webhookSecret: 'x' });
    await expect(wrongToken.createEnvelope(request('contract-4'))).rejects.toMatchObject({ code: 'PROVIDER_ERROR', details: { provider_status: 401 } });
  });

  it('verifies the webhook secret and reads doc_signed / doc_refused into one fact each, with a stable event id', async () => {
    const envelope = await provider.createEnvelope(request('contract-5'));
    const signed = server.act(envelope.ref, 'signer-2', 'signed');
    expect(() => provider.verifyWebhook({ 'x-carteiro-secret': 'wrong' }, signed)).toThrow(expect.objectContaining({ code: 'UNAUTHORIZED' }));
    expect(() => provider.verifyWebhook({}, signed)).toThrow(expect.objectContaining({ code: 'UNAUTHORIZED' }));
    const facts = provider.verifyWebhook({ 'x-carteiro-secret': 's3cr3t' }, signed);
    expect(facts).toEqual([{ eventId: `doc_signed:${envelope.ref}:${envelope.signers[1]!.ref}`, envelopeRef: envelope.ref, signer: expect.objectContaining({ id: 'signer-2', status: 'signed' }) }]);
    expect(provider.verifyWebhook({ 'x-carteiro-secret': 's3cr3t' }, signed)[0]!.eventId).toBe(facts[0]!.eventId);
    const refused = provider.verifyWebhook({ 'x-carteiro-secret': 's3cr3t' }, server.act(envelope.ref, 'signer-1', 'refused'));
    expect(refused).toEqual([{ eventId: `doc_refused:${envelope.ref}:${envelope.signers[0]!.ref}`, envelopeRef: envelope.ref, signer: expect.objectContaining({ id: 'signer-1', status: 'refused', reason: 'Não concordo' }) }]);
    expect(provider.verifyWebhook({ 'x-carteiro-secret': 's3cr3t' }, { event_type: 'doc_created', token: envelope.ref })).toEqual([]);
  });
});
