import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sql } from 'kysely';
import request from 'supertest';
import { withoutTestFailures } from '../testing/no-test-failures.js';
import { expectOneIdempotentEffect, sortedStatuses, unthrottledTenant } from '../testing/races.js';
import { createTestApi, type TestApi, type TestTenant } from '../testing/test-api.js';

/** Never under the simulator's 5 % test-key failure rate; real bytes for keys and secrets. */

/**
 * Concurrent contract writes (business.md §4: send is a compare-and-set draft → sending, provider webhooks are
 * deduplicated, the states only move forward): one send, one envelope, one final state, no 500.
 */
let api: TestApi;
beforeAll(async () => {
  api = await createTestApi({ overrides: withoutTestFailures() });
});
afterAll(() => api.close());

let phoneSeq = 0;
// Ending in 5xx: none of the simulator's magic endings (0001, …), which fail on purpose.
const nextPhone = () => `+55119740${String(500 + ++phoneSeq).padStart(5, '0')}`;
const actor = { 'x-actor-user-id': 'user-7' };
const tenant = () => unthrottledTenant(api, { plan_code: 'pro' });
const contractEvents = async (name: string, contractId: string) =>
  Number(
    (await sql<{ n: string }>`SELECT count(*) AS n FROM domain_events WHERE event = ${name} AND data->>'contractId' = ${contractId}`.execute(api.database.db)).rows[0]!.n,
  );

async function draft(t: TestTenant, extra: Record<string, unknown> = {}) {
  const client = await request(api.app).post('/v1/crm/opportunities').set(t.auth).send({ title: 'Cliente', phone: nextPhone(), name: 'Joana' });
  expect(client.status).toBe(201);
  const res = await request(api.app)
    .post('/v1/contracts')
    .set(t.auth)
    .send({ title: 'Serviços', client_id: client.body.data.client.id, content: '# Contrato\n\n{{cliente_nome}}', value: 100, ...extra });
  expect(res.status).toBe(201);
  return res.body.data as { id: string };
}

const send = (t: TestTenant, id: string, headers: Record<string, string> = {}) =>
  request(api.app).post(`/v1/contracts/${id}/send`).set(t.auth).set(actor).set(headers).send({ setor_id: t.setor.id });

describe('contracts under concurrent writes', () => {
  it('ten sends of one draft: one 200 sent, nine 409 CONFLICT, one envelope, one contract.sent, one delivery', async () => {
    const t = await tenant();
    const c = await draft(t);
    const answers = await Promise.all(Array.from({ length: 10 }, () => send(t, c.id)));
    expect(sortedStatuses(answers)).toEqual([200, ...Array<number>(9).fill(409)]);
    for (const a of answers.filter((x) => x.status === 409)) expect(a.body.error.code).toBe('CONFLICT');
    expect(await contractEvents('contract.sent', c.id)).toBe(1);
    const detail = (await request(api.app).get(`/v1/contracts/${c.id}`).set(t.auth)).body.data;
    expect(detail.status).toBe('sent');
    expect(detail.delivery.message_ids).toEqual(answers.find((a) => a.status === 200)!.body.data.delivery.message_ids);
  });

  it('ten sends with one Idempotency-Key: one send; the others replay it or answer 409', async () => {
    const t = await tenant();
    const c = await draft(t);
    const answers = await Promise.all(Array.from({ length: 10 }, () => send(t, c.id, { 'Idempotency-Key': `send-${c.id}` })));
    expectOneIdempotentEffect(answers, 200, { idOf: (d) => d.sent_at, inFlightCodes: ['IDEMPOTENCY_KEY_IN_USE', 'CONFLICT'] });
    expect(await contractEvents('contract.sent', c.id)).toBe(1);
  });

  it('a cancel and edits racing the send: the contract ends sent or cancelled, every answer 200 or 409, nothing half-written', async () => {
    const t = await tenant();
    const c = await draft(t);
    const answers = await Promise.all([
      send(t, c.id),
      request(api.app).delete(`/v1/contracts/${c.id}`).set(t.auth),
      ...Array.from({ length: 4 }, (_, i) => request(api.app).patch(`/v1/contracts/${c.id}`).set(t.auth).send({ title: `Título ${i}` })),
    ]);
    for (const a of answers) expect([200, 409]).toContain(a.status);
    const detail = (await request(api.app).get(`/v1/contracts/${c.id}`).set(t.auth)).body.data;
    expect(['sent', 'cancelled']).toContain(detail.status);
    if (detail.status === 'sent') expect(await contractEvents('contract.sent', c.id)).toBe(1);
    // Cancelled exactly when the cancel answered 200 (a draft, or a sent contract after the send); never mid-send.
    expect(answers[1]!.status === 200).toBe(detail.status === 'cancelled');
  });

  it('operator edits of different fields of one template at once: every change lands', async () => {
    const t = await tenant();
    const created = await request(api.app)
      .post(`/admin/v1/companies/${t.company.id}/contract-templates`)
      .set(api.adminAuth)
      .send({ name: 'Serviços', body: '# Contrato\n\n{{cliente_nome}}' });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    for (let round = 0; round < 5; round += 1) {
      const patch = (body: Record<string, unknown>) => request(api.app).patch(`/admin/v1/contract-templates/${id}`).set(api.adminAuth).send(body);
      const answers = await Promise.all([patch({ name: `Serviços ${round}` }), patch({ description: `Versão ${round}` }), patch({ body: `# Contrato ${round}\n\n{{cliente_nome}}` })]);
      expect(sortedStatuses(answers)).toEqual([200, 200, 200]);
      const stored = (await request(api.app).get('/v1/contract-templates').set(t.auth)).body.data.find((x: { id: string }) => x.id === id);
      expect(stored).toMatchObject({ name: `Serviços ${round}`, description: `Versão ${round}`, body: `# Contrato ${round}\n\n{{cliente_nome}}` });
    }
  });

  it('every signer signing at once, twice each: one contract.signed, the contract signed', async () => {
    const t = await tenant();
    const c = await draft(t, { signers: [1, 2, 3].map((i) => ({ name: `Testemunha ${i}`, phone: nextPhone() })) });
    expect((await send(t, c.id)).status).toBe(200);
    const signers = (await request(api.app).get(`/v1/contracts/${c.id}`).set(t.auth)).body.data.signers as { id: string }[];
    expect(signers).toHaveLength(4);
    const sign = (signerId: string) => request(api.app).post(`/admin/v1/simulator/contracts/${c.id}/sign`).set(api.adminAuth).send({ signer_id: signerId, outcome: 'signed' });
    const answers = await Promise.all([...signers, ...signers].map((s) => sign(s.id)));
    expect(sortedStatuses(answers)).toEqual(Array<number>(8).fill(200));
    expect(answers.reduce((n, a) => n + (a.body.data.applied as number), 0)).toBe(4);
    expect((await request(api.app).get(`/v1/contracts/${c.id}`).set(t.auth)).body.data.status).toBe('signed');
    expect(await contractEvents('contract.signed', c.id)).toBe(1);
  });

  it('signatures and a refusal at once: one final state (signed or refused) and exactly its one event', async () => {
    const t = await tenant();
    const c = await draft(t, { signers: [{ name: 'Testemunha', phone: nextPhone() }] });
    expect((await send(t, c.id)).status).toBe(200);
    const [client, witness] = (await request(api.app).get(`/v1/contracts/${c.id}`).set(t.auth)).body.data.signers as { id: string }[];
    const simulate = (signerId: string, outcome: 'signed' | 'refused') =>
      request(api.app).post(`/admin/v1/simulator/contracts/${c.id}/sign`).set(api.adminAuth).send({ signer_id: signerId, outcome, reason: 'Não' });
    const answers = await Promise.all([simulate(client!.id, 'signed'), simulate(witness!.id, 'refused'), simulate(witness!.id, 'signed'), simulate(client!.id, 'refused')]);
    for (const a of answers) expect([200, 409]).toContain(a.status);
    const status = (await request(api.app).get(`/v1/contracts/${c.id}`).set(t.auth)).body.data.status as string;
    expect(['signed', 'refused']).toContain(status);
    expect([await contractEvents('contract.signed', c.id), await contractEvents('contract.refused', c.id)]).toEqual(status === 'signed' ? [1, 0] : [0, 1]);
  });
});
