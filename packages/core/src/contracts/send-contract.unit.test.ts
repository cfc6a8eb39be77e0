import { beforeEach, describe, expect, it } from '@jest/globals';
import { createChannelInstance } from '../channel/index.js';
import { FakeChannelGateway } from '../channel/testing/index.js';
import { createCompany, type Company } from '../companies/index.js';
import { createContact } from '../contacts/index.js';
import { createSetor } from '../setores/index.js';
import { DomainError } from '../shared/errors.js';
import { InMemoryUnitOfWork } from '../testing/in-memory-unit-of-work.js';
import { ManualClock } from '../shared/testing/manual-clock.js';
import { SequentialIds } from '../shared/testing/deterministic.js';
import { CreateContract, CancelContract } from './contracts.js';
import { SendContract } from './send-contract.js';
import { HandleSigningWebhook, ReconcileContracts, SweepStuckContractSends } from './signing-outcomes.js';
import { FakeContractRenderer, FakeSigningProvider, fakeSigningProviders } from './testing/index.js';

const code = (c: string, details?: Record<string, unknown>) => expect.objectContaining({ code: c, ...(details ? { details: expect.objectContaining(details) } : {}) });

describe('SendContract: a compensated, idempotent saga', () => {
  let clock: ManualClock;
  let ids: SequentialIds;
  let uow: InMemoryUnitOfWork;
  let gateway: FakeChannelGateway;
  let renderer: FakeContractRenderer;
  let provider: FakeSigningProvider;
  let company: Company;
  let clientId: string;
  let setorId: string;
  let send: SendContract;

  const draft = async (extra: { signers?: { name: string; phone: string }[] } = {}) =>
    new CreateContract(uow, ids, clock).execute(company.id, {
      title: 'Prestação de serviços',
      clientId,
      content: '# Contrato\n\nEntre **{{empresa_nome}}** e {{cliente_nome}}, por {{valor}}, em {{data}}. Prazo: {{prazo}}.',
      variables: { prazo: '30 dias' },
      value: 123_456,
      ...extra,
    });
  const run = (contractId: string, mode: 'live' | 'test' = 'live') => send.execute({ companyId: company.id, contractId, actorUserId: 'user-1', mode });
  const stored = (id: string) => uow.repos.contracts.findById(company.id, id);

  beforeEach(async () => {
    clock = new ManualClock('2026-03-10T15:00:00.000Z');
    ids = new SequentialIds();
    uow = new InMemoryUnitOfWork();
    gateway = new FakeChannelGateway(clock);
    renderer = new FakeContractRenderer();
    provider = new FakeSigningProvider('simulator');
    company = createCompany(ids.newId(), clock.now(), { name: 'Acme Serviços', planCode: 'trial' });
    await uow.repos.companies.insert(company);
    const client = createContact(ids.newId(), company.id, '+5511987650300', 'Joana', clock.now());
    await uow.repos.contacts.insert(client);
    clientId = client.id;
    const setor = createSetor(ids.newId(), company.id, clock.now(), { nome: 'Vendas' });
    await uow.repos.setores.insert(setor);
    setorId = setor.id;
    await uow.repos.channelInstances.insert({ ...createChannelInstance(ids.newId(), setor, clock.now()), status: 'connected', phoneNumber: '+5511900000001' });
    send = new SendContract(uow, gateway, renderer, fakeSigningProviders(provider), ids, clock);
  });

  it('renders the filled PDF, creates the envelope, delivers the PDF then the link to each signer, and records contract.sent', async () => {
    const contract = await draft({ signers: [{ name: 'Sócio', phone: '+5511987650301' }] });
    const { sent, replay } = await run(contract.id);
    expect(replay).toBe(false);
    expect(sent).toMatchObject({ id: contract.id, status: 'sent', delivery: { setorId, messageIds: expect.any(Array) } });
    expect(sent.delivery.messageIds).toHaveLength(4);
    expect(renderer.rendered[0]!.body).toBe('# Contrato\n\nEntre **Acme Serviços** e Joana, por R$ 1.234,56, em 10/03/2026. Prazo: 30 dias.');
    expect(gateway.sent.map((s) => [s.to, s.content.kind])).toEqual([
      ['+5511987650300', 'document'],
      ['+5511987650300', 'text'],
      ['+5511987650301', 'document'],
      ['+5511987650301', 'text'],
    ]);
    const link = gateway.sent[1]!.content;
    expect(link.kind === 'text' && link.text).toContain('https://sign.example/env-1/');
    expect(provider.live()).toHaveLength(1);
    const after = await stored(contract.id);
    expect(after).toMatchObject({ status: 'sent', provider: 'simulator', providerRef: 'env-1', document: { pages: 1 } });
    const events = uow.store.events.filter((e) => e.event === 'contract.sent');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actor: { user_id: 'user-1', source: 'api' }, setorId, data: { contractId: contract.id, value: 1234.56, signerCount: 2, provider: 'simulator' } });
    await expect(run(contract.id)).rejects.toEqual(code('CONFLICT'));
  });

  it('a channel failure cancels the envelope and returns the draft (502 stage channel); a refused recipient is 422', async () => {
    const contract = await draft();
    gateway.failFor('+5511987650300', { code: 'TEMP_SERVER_ERROR', providerFailure: true });
    await expect(run(contract.id)).rejects.toEqual(code('PROVIDER_ERROR', { stage: 'channel' }));
    expect(await stored(contract.id)).toMatchObject({ status: 'draft', provider: null, providerRef: null, sendingSince: null });
    expect(provider.envelopes.size).toBe(1);
    expect(provider.live()).toEqual([]);
    expect(uow.store.events.filter((e) => e.event === 'contract.sent')).toEqual([]);
    gateway.failFor('+5511987650300', { code: 'RECIP_NOT_WHATSAPP' });
    await expect(run(contract.id)).rejects.toEqual(code('UNPROCESSABLE', { reason: 'recipient_failed' }));
    expect((await stored(contract.id))?.status).toBe('draft');
    gateway.failures.clear();
    expect((await run(contract.id)).sent.status).toBe('sent');
  });

  it('a signing failure is 502 stage signing and leaves the draft', async () => {
    const contract = await draft();
    provider.failCreate = true;
    await expect(run(contract.id)).rejects.toEqual(code('PROVIDER_ERROR', { stage: 'signing' }));
    expect((await stored(contract.id))?.status).toBe('draft');
    expect(gateway.sent).toEqual([]);
  });

  it('when even the cancel fails the send stays sending, and the sweep finishes the compensation after 5 minutes', async () => {
    const contract = await draft();
    gateway.failFor('+5511987650300', { code: 'TEMP_SERVER_ERROR', providerFailure: true });
    provider.failCancel = true;
    await expect(run(contract.id)).rejects.toEqual(code('PROVIDER_ERROR'));
    expect((await stored(contract.id))?.status).toBe('sending');
    const sweep = new SweepStuckContractSends(uow, fakeSigningProviders(provider), ids, clock);
    expect(await sweep.execute()).toBe(0);
    clock.advance(5 * 60_000 + 1);
    expect(await sweep.execute()).toBe(0);
    provider.failCancel = false;
    expect(await sweep.execute()).toBe(1);
    expect((await stored(contract.id))?.status).toBe('draft');
    expect(provider.live()).toEqual([]);
  });

  it('answers an Idempotency-Key replay with the first result and sends nothing again', async () => {
    const contract = await draft();
    const key = { key: 'send-1', requestHash: 'h1' };
    const first = await send.execute({ companyId: company.id, contractId: contract.id, actorUserId: 'u', mode: 'live' }, key);
    const again = await send.execute({ companyId: company.id, contractId: contract.id, actorUserId: 'u', mode: 'live' }, key);
    expect(again).toEqual({ sent: first.sent, replay: true });
    expect(gateway.sent).toHaveLength(2);
    await expect(send.execute({ companyId: company.id, contractId: contract.id, actorUserId: 'u', mode: 'live' }, { key: 'send-1', requestHash: 'other' })).rejects.toEqual(code('IDEMPOTENCY_KEY_MISMATCH'));
  });

  it('refuses a live send past the plan quota (trial: 5 a month) with 402 PLAN_LIMIT_REACHED; test keys are never refused', async () => {
    for (let i = 0; i < 5; i += 1) await run((await draft()).id);
    const sixth = await draft();
    const refused = await run(sixth.id).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).code).toBe('PLAN_LIMIT_REACHED');
    expect((refused as DomainError).details).toEqual({ quota: 'contracts_per_month', limit: 5, used: 5, resets_at: '2026-04-01T03:00:00.000Z' });
    expect((await stored(sixth.id))?.status).toBe('draft');
    expect((await run(sixth.id, 'test')).sent.status).toBe('sent');
  });

  it('provider webhooks sign the contract once (a repeat is a duplicate); the reconcile applies what a missed webhook said', async () => {
    const contract = await draft({ signers: [{ name: 'Sócio', phone: '+5511987650301' }] });
    await run(contract.id);
    const [first, second] = (await stored(contract.id))!.signers;
    const webhooks = new HandleSigningWebhook(uow, fakeSigningProviders(provider), ids, clock);
    const event = (id: string, signerId: string) => [{ eventId: id, envelopeRef: 'env-1', signer: { id: signerId, ref: `sig-${signerId}`, status: 'signed', at: clock.now(), reason: null } }];
    await expect(webhooks.execute('simulator', {}, event('e1', first!.id))).rejects.toEqual(code('UNAUTHORIZED'));
    expect(await webhooks.execute('simulator', { 'x-fake-secret': 'fake-secret' }, event('e1', first!.id))).toEqual({ received: 1, applied: 1, duplicates: 0 });
    expect(await webhooks.execute('simulator', { 'x-fake-secret': 'fake-secret' }, event('e1', first!.id))).toEqual({ received: 1, applied: 0, duplicates: 1 });
    expect((await stored(contract.id))?.status).toBe('sent');
    // The second signature's webhook is lost: the reconcile asks the provider.
    provider.envelopes.get('env-1')!.status.signers[1]!.status = 'signed';
    const reconcile = new ReconcileContracts(uow, fakeSigningProviders(provider), ids, clock);
    expect(await reconcile.execute()).toEqual({ checked: 1, changed: 1 });
    expect((await stored(contract.id))?.status).toBe('signed');
    expect(await webhooks.execute('simulator', { 'x-fake-secret': 'fake-secret' }, event('e2', second!.id))).toMatchObject({ applied: 0 });
    const signed = uow.store.events.filter((e) => e.event === 'contract.signed');
    expect(signed).toHaveLength(1);
    expect(signed[0]!.data).toMatchObject({ contractId: contract.id, documentSha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it('cancels a sent contract and its envelope', async () => {
    const contract = await draft();
    await run(contract.id);
    const cancelled = await new CancelContract(uow, fakeSigningProviders(provider), ids, clock).execute(company.id, contract.id, { user_id: null, source: 'api' });
    expect(cancelled.status).toBe('cancelled');
    expect(provider.live()).toEqual([]);
  });
});
