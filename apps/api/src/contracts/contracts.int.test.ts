import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ContainerModule } from 'inversify';
import request from 'supertest';
import { Clock, Random, SigningProviders } from '@carteiro/core';
import { noTestFailures } from '../testing/no-test-failures.js';
import { ConfiguredSigningProviders, SimulatorSigningProvider, ZapSignSigningProvider } from '@carteiro/signing';
import { FakeZapSignServer } from '@carteiro/signing/testing';
import { createTestApi, type TestApi } from '../testing/test-api.js';

/** Never under the simulator's 5 % test-key failure rate; real bytes for keys and secrets. */

describe('contracts: /v1/contracts, templates, send, the signing simulator and provider webhooks', () => {
  let api: TestApi;
  const zapsign = new FakeZapSignServer('zs-token');
  let companyId: string;
  let key: string;
  let readOnly: string;
  let liveKey: string;
  let otherKey: string;
  let setorId: string;
  const as = (k: string) => ({ Authorization: `Bearer ${k}` });
  const actor = { 'x-actor-user-id': 'user-42' };

  const events = async (name: string, contractId: string) =>
    (await api.database.db.selectFrom('domain_events').selectAll().where('event', '=', name).orderBy('seq').execute()).filter(
      (e) => (e.data as { contractId?: string }).contractId === contractId,
    );
  const contact = async (phone: string, name = 'Joana Conceição') => {
    // A contact through the CRM's client resolution (phone + name, upserted).
    const res = await request(api.app).post('/v1/crm/opportunities').set(as(key)).send({ title: `Cliente ${phone}`, phone, name }).expect(201);
    return res.body.data.client.id as string;
  };
  const draft = async (clientId: string, extra: Record<string, unknown> = {}, k = key) =>
    (
      await request(api.app)
        .post('/v1/contracts')
        .set(as(k))
        .send({ title: 'Prestação de serviços', client_id: clientId, content: '# Contrato\n\nEntre **{{empresa_nome}}** e {{cliente_nome}}, por {{valor}}.', value: 1234.56, ...extra })
        .expect(201)
    ).body.data;

  beforeAll(async () => {
    const zapsignUrl = await zapsign.start();
    api = await createTestApi({
      overrides: [
        new ContainerModule(({ rebind }) => {
          rebind(Random).toConstantValue(noTestFailures);
          rebind(SigningProviders).toResolvedValue(
            (clock: Clock) =>
              new ConfiguredSigningProviders(
                new SimulatorSigningProvider(clock),
                new ZapSignSigningProvider({ baseUrl: zapsignUrl, apiToken: 'zs-token', webhookSecret: 'hook-secret', webhookHeader: 'x-carteiro-secret' }),
              ),
            [Clock],
          );
        }),
      ],
    });
    const company = await api.createCompany({ name: 'Acme Serviços', company_rpm: 100_000, plan_code: 'pro' });
    companyId = company.id;
    key = await api.createKey(companyId, { scopes: ['contracts:read', 'contracts:write', 'crm:read', 'crm:write'], rpm: 100_000 });
    readOnly = await api.createKey(companyId, { scopes: ['contracts:read'], rpm: 100_000 });
    liveKey = await api.createKey(companyId, { scopes: ['contracts:read', 'contracts:write'], mode: 'live', rpm: 100_000 });
    otherKey = await api.createKey((await api.createCompany({ company_rpm: 100_000 })).id, { scopes: ['contracts:read', 'contracts:write'], rpm: 100_000 });
    setorId = (await api.createSetor(companyId, { nome: 'Vendas' })).id;
    await api.connectSetor(companyId, setorId);
  });
  afterAll(async () => {
    await api.close();
    await zapsign.stop();
  });

  it('manages templates (operator) and makes drafts from them: missing variables 422, content or template, 404s', async () => {
    const created = await request(api.app)
      .post(`/admin/v1/companies/${companyId}/contract-templates`)
      .set(api.adminAuth)
      .send({ name: 'Serviços', body: '# Contrato\n\nPrazo: {{prazo}}. Cliente: {{cliente_nome}}.', variables: [{ key: 'prazo', label: 'Prazo' }, { key: 'foro', label: 'Foro', required: false }] })
      .expect(201);
    const template = created.body.data;
    expect(template).toMatchObject({ name: 'Serviços', active: true, variables: [{ key: 'prazo', label: 'Prazo', required: true }, { key: 'foro', required: false }] });
    expect((await request(api.app).get('/v1/contract-templates').set(as(readOnly)).expect(200)).body.data.map((t: { id: string }) => t.id)).toEqual([template.id]);
    const clientId = await contact('+5511987650400');
    const missing = await request(api.app).post('/v1/contracts').set(as(key)).send({ title: 'X', client_id: clientId, template_id: template.id }).expect(422);
    expect(missing.body.error.details).toEqual({ reason: 'missing_variables', missing_variables: ['prazo'] });
    const fromTemplate = await request(api.app).post('/v1/contracts').set(as(key)).send({ title: 'X', client_id: clientId, template_id: template.id, variables: { prazo: '12 meses' } }).expect(201);
    expect(fromTemplate.body.data).toMatchObject({ status: 'draft', template_id: template.id, variables: { prazo: '12 meses' }, client: { id: clientId } });
    await request(api.app).post('/v1/contracts').set(as(key)).send({ title: 'X', client_id: clientId, template_id: template.id, content: 'x', variables: { prazo: '1' } }).expect(400);
    await request(api.app).post('/v1/contracts').set(as(key)).send({ title: 'X', client_id: clientId }).expect(400);
    await request(api.app).post('/v1/contracts').set(as(key)).send({ title: 'X', client_id: '00000000-0000-4000-8000-000000000000', content: 'x' }).expect(404);
    await request(api.app).post('/v1/contracts').set(as(key)).send({ title: 'X', client_id: clientId, content: 'x', opportunity_id: '00000000-0000-4000-8000-000000000000' }).expect(404);
    await request(api.app).post('/v1/contracts').set(as(otherKey)).send({ title: 'X', client_id: clientId, content: 'x' }).expect(404);
    await request(api.app).post('/v1/contracts').set(as(readOnly)).send({ title: 'X', client_id: clientId, content: 'x' }).expect(403);
    await request(api.app).patch(`/admin/v1/contract-templates/${template.id}`).set(api.adminAuth).send({ description: 'Padrão' }).expect(200);
    expect((await request(api.app).delete(`/admin/v1/contract-templates/${template.id}`).set(api.adminAuth).expect(200)).body.data.active).toBe(false);
    expect((await request(api.app).get('/v1/contract-templates').set(as(key)).expect(200)).body.data).toEqual([]);
    await request(api.app).post('/v1/contracts').set(as(key)).send({ title: 'X', client_id: clientId, template_id: template.id, variables: { prazo: '1' } }).expect(404);
  });

  it('edits drafts, lists with filters, and hides drafts from other companies', async () => {
    const clientId = await contact('+5511987650401');
    const c = await draft(clientId);
    const patched = await request(api.app).patch(`/v1/contracts/${c.id}`).set(as(key)).send({ title: 'Serviços 2026', value: 99.9, signers: [{ name: 'Sócio', phone: '+5511987650402' }] }).expect(200);
    expect(patched.body.data).toMatchObject({ title: 'Serviços 2026', value: 99.9, signers: [{ name: 'Joana Conceição' }, { name: 'Sócio', phone: '+5511*****0402' }] });
    const list = await request(api.app).get(`/v1/contracts?client_id=${clientId}&status=draft&search=2026`).set(as(readOnly)).expect(200);
    expect(list.body.data.items.map((x: { id: string }) => x.id)).toEqual([c.id]);
    await request(api.app).get(`/v1/contracts/${c.id}`).set(as(otherKey)).expect(404);
    await request(api.app).patch(`/v1/contracts/${c.id}`).set(as(otherKey)).send({ title: 'x' }).expect(404);
  });

  it('sends through the simulators: PDF then link on the channel, contract.sent with the actor, a sanitised detail; the simulator signs once', async () => {
    const clientId = await contact('+5511987650403');
    const c = await draft(clientId);
    const noActor = await request(api.app).post(`/v1/contracts/${c.id}/send`).set(as(key)).send({}).expect(400);
    expect(noActor.body.error.details).toEqual({ field: 'x-actor-user-id' });
    const sent = await request(api.app).post(`/v1/contracts/${c.id}/send`).set(as(key)).set(actor).set('Idempotency-Key', `send-${c.id}`).send({ setor_id: setorId }).expect(200);
    expect(sent.body.data).toMatchObject({ id: c.id, status: 'sent', signers: [{ name: 'Joana Conceição', status: 'pending' }], delivery: { setor_id: setorId, message_ids: expect.any(Array) }, duration_ms: expect.any(Number) });
    expect(sent.body.data.delivery.message_ids).toHaveLength(2);
    const replay = await request(api.app).post(`/v1/contracts/${c.id}/send`).set(as(key)).set(actor).set('Idempotency-Key', `send-${c.id}`).send({ setor_id: setorId }).expect(200);
    expect(replay.body).toMatchObject({ data: sent.body.data, meta: { idempotent_replay: true } });
    await request(api.app).post(`/v1/contracts/${c.id}/send`).set(as(key)).set(actor).send({}).expect(409);
    await request(api.app).patch(`/v1/contracts/${c.id}`).set(as(key)).send({ title: 'x' }).expect(409);

    const outbox = await request(api.app).get('/admin/v1/simulator/messages?limit=20').set(api.adminAuth).expect(200);
    const mine = (outbox.body.data.items ?? outbox.body.data).filter((m: { to?: string }) => m.to === '+5511987650403');
    expect(mine.map((m: { kind: string }) => m.kind).sort()).toEqual(['document', 'text']);
    expect(JSON.stringify(mine)).toMatch(/sha256=[0-9a-f]{64}/);

    const detail = (await request(api.app).get(`/v1/contracts/${c.id}`).set(as(readOnly)).expect(200)).body.data;
    expect(detail).toMatchObject({ status: 'sent', provider: 'simulator', document: { pages: 1, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }, signers: [{ phone: '+5511*****0403' }] });
    const text = JSON.stringify(detail);
    expect(text).not.toMatch(/https?:\/\/sign|sim_|provider_ref|sign_url|base64|%PDF/);

    const sentEvents = await events('contract.sent', c.id);
    expect(sentEvents).toHaveLength(1);
    expect(sentEvents[0]).toMatchObject({ setor_id: setorId, actor: { user_id: 'user-42', source: 'api' }, data: { title: 'Prestação de serviços', value: 1234.56, signerCount: 1, provider: 'simulator' } });

    const signer = detail.signers[0].id;
    await request(api.app).post(`/admin/v1/simulator/contracts/${c.id}/sign`).set(as(key)).send({ signer_id: signer, outcome: 'signed' }).expect(401);
    expect((await request(api.app).post(`/admin/v1/simulator/contracts/${c.id}/sign`).set(api.adminAuth).send({ signer_id: signer, outcome: 'signed' }).expect(200)).body.data).toEqual({
      received: 1,
      applied: 1,
      duplicates: 0,
    });
    expect((await request(api.app).post(`/admin/v1/simulator/contracts/${c.id}/sign`).set(api.adminAuth).send({ signer_id: signer, outcome: 'signed' }).expect(200)).body.data).toEqual({
      received: 1,
      applied: 0,
      duplicates: 1,
    });
    expect((await request(api.app).get(`/v1/contracts/${c.id}`).set(as(key)).expect(200)).body.data).toMatchObject({ status: 'signed', signed_at: expect.any(String), signers: [{ status: 'signed' }] });
    const signed = await events('contract.signed', c.id);
    expect(signed).toHaveLength(1);
    expect(signed[0]!.data).toMatchObject({ contractId: c.id, clientId, documentSha256: detail.document.sha256 });
    const cancelSigned = await request(api.app).delete(`/v1/contracts/${c.id}`).set(as(key)).expect(409);
    expect(cancelSigned.body.error.code).toBe('INVALID_TRANSITION');
  });

  it('a send whose channel step fails leaves a draft and no live envelope (502 stage channel)', async () => {
    const clientId = await contact('+5511987650004');
    const c = await draft(clientId);
    const failed = await request(api.app).post(`/v1/contracts/${c.id}/send`).set(as(key)).set(actor).send({}).expect(502);
    expect(failed.body.error).toMatchObject({ code: 'PROVIDER_ERROR', details: { stage: 'channel' } });
    expect((await request(api.app).get(`/v1/contracts/${c.id}`).set(as(key)).expect(200)).body.data).toMatchObject({ status: 'draft', provider: null, sent_at: null });
    const simulator = api.container.get<SigningProviders>(SigningProviders).byName('simulator') as SimulatorSigningProvider;
    expect(simulator.liveEnvelopes()).not.toContain(`sim_${c.id}`);
    expect(await events('contract.sent', c.id)).toEqual([]);
  });

  it('refuses through the simulator (contract.refused) and cancels drafts and sent contracts (a repeat answers the same)', async () => {
    const clientId = await contact('+5511987650405');
    const refused = await draft(clientId);
    await request(api.app).post(`/v1/contracts/${refused.id}/send`).set(as(key)).set(actor).send({}).expect(200);
    const signer = (await request(api.app).get(`/v1/contracts/${refused.id}`).set(as(key))).body.data.signers[0].id;
    await request(api.app).post(`/admin/v1/simulator/contracts/${refused.id}/sign`).set(api.adminAuth).send({ signer_id: signer, outcome: 'refused', reason: 'Valor alto' }).expect(200);
    expect((await request(api.app).get(`/v1/contracts/${refused.id}`).set(as(key))).body.data).toMatchObject({ status: 'refused', signers: [{ status: 'refused', refusal_reason: 'Valor alto' }] });
    expect((await events('contract.refused', refused.id)).map((e) => e.data)).toEqual([expect.objectContaining({ signerId: signer, reason: 'Valor alto' })]);

    const d = await draft(clientId);
    const cancelled = await request(api.app).delete(`/v1/contracts/${d.id}`).set(as(key)).expect(200);
    expect(cancelled.body.data).toEqual({ id: d.id, status: 'cancelled', cancelled_at: expect.any(String) });
    expect((await request(api.app).delete(`/v1/contracts/${d.id}`).set(as(key)).expect(200)).body.data).toEqual(cancelled.body.data);
    await request(api.app).post(`/admin/v1/simulator/contracts/${d.id}/sign`).set(api.adminAuth).send({ signer_id: signer, outcome: 'signed' }).expect(409);
    const s = await draft(clientId);
    await request(api.app).post(`/v1/contracts/${s.id}/send`).set(as(key)).set(actor).send({}).expect(200);
    await request(api.app).delete(`/v1/contracts/${s.id}`).set(as(key)).expect(200);
    const simulator = api.container.get<SigningProviders>(SigningProviders).byName('simulator') as SimulatorSigningProvider;
    expect(simulator.liveEnvelopes()).not.toContain(`sim_${s.id}`);
  });

  it('live keys send through ZapSign; its webhook needs the secret, and a duplicated delivery emits one contract.signed', async () => {
    const clientId = await contact('+5511987650406');
    const c = await draft(clientId, {}, key);
    await request(api.app).post(`/v1/contracts/${c.id}/send`).set(as(liveKey)).set(actor).send({}).expect(200);
    const doc = zapsign.byExternalId(c.id)!;
    expect(doc).toBeDefined();
    const body = zapsign.act(doc.token, doc.signers[0]!.external_id, 'signed');
    await request(api.app).post('/webhooks/signing/zapsign').set('x-carteiro-secret', 'wrong').send(body).expect(401);
    expect((await request(api.app).post('/webhooks/signing/zapsign').set('x-carteiro-secret', 'hook-secret').send(body).expect(200)).body.data).toEqual({ received: 1, applied: 1, duplicates: 0 });
    expect((await request(api.app).post('/webhooks/signing/zapsign').set('x-carteiro-secret', 'hook-secret').send(body).expect(200)).body.data).toEqual({ received: 1, applied: 0, duplicates: 1 });
    expect((await request(api.app).get(`/v1/contracts/${c.id}`).set(as(key))).body.data).toMatchObject({ status: 'signed', provider: 'zapsign' });
    expect(await events('contract.signed', c.id)).toHaveLength(1);
    await request(api.app).post('/webhooks/signing/other').send({}).expect(404);
  });

  it('refuses live sends past the plan quota (trial: 5 a month) with 402 PLAN_LIMIT_REACHED', async () => {
    const { company: trial, key: live, setor } = await api.createTenant({
      settings: { name: 'Trial', plan_code: 'trial', company_rpm: 100_000 },
      key: { scopes: ['*'], mode: 'live', rpm: 100_000 },
      setor: { nome: 'Caixa' },
    });
    const box = setor.id;
    const clientId = (await request(api.app).post('/v1/crm/opportunities').set(as(live)).send({ title: 'x', phone: '+5511987650407' }).expect(201)).body.data.client.id;
    for (let i = 0; i < 5; i += 1) {
      const d = await draft(clientId, {}, live);
      await request(api.app).post(`/v1/contracts/${d.id}/send`).set(as(live)).set(actor).send({}).expect(200);
    }
    const sixth = await draft(clientId, {}, live);
    const refused = await request(api.app).post(`/v1/contracts/${sixth.id}/send`).set(as(live)).set(actor).send({}).expect(402);
    expect(refused.body.error).toMatchObject({ code: 'PLAN_LIMIT_REACHED', details: { quota: 'contracts_per_month', limit: 5, used: 5, resets_at: expect.any(String) } });
    const limits = await request(api.app).get('/v1/limits').set(as(live)).expect(200);
    expect(limits.body.data.quotas.contracts_per_month).toMatchObject({ limit: 5, used: 5, remaining: 0 });
    // Test keys are never refused, and their sends do not count.
    const test = await api.createKey(trial.id, { scopes: ['*'], rpm: 100_000 });
    await request(api.app).post(`/v1/contracts/${sixth.id}/send`).set(as(test)).set(actor).send({}).expect(200);
    expect((await request(api.app).get('/v1/limits').set(as(live)).expect(200)).body.data.quotas.contracts_per_month.used).toBe(5);
  });
});
