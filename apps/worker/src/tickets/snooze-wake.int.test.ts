import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { Clock, Repositories, createContact, newConversation } from '@carteiro/core';
import { ManualClock } from '@carteiro/core/testing';
import type { ServiceRepositories } from '@carteiro/postgres';
import { ContainerModule } from 'inversify';
import request from 'supertest';
import { createTestApi, type TestApi } from '../../../api/src/testing/test-api.js';
import { createTestWorker, eventually, type TestWorker } from '../testing/test-worker.js';

describe('snoozed tickets wake up at their time through the worker', () => {
  // The API runs 61 s behind the real clock: a snooze of the minimum 60 s is already due for the worker and pg-boss.
  const apiClock = new ManualClock(new Date(Date.now() - 61_000));
  let api: TestApi;
  let worker: TestWorker;
  beforeAll(async () => {
    api = await createTestApi({ overrides: [new ContainerModule(({ isBound, rebind }) => void (isBound(Clock) && rebind(Clock).toConstantValue(apiClock)))] });
    worker = await createTestWorker({ database: api.database });
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
  });

  it('opens a ticket whose snooze ran out (its own job) and leaves one snoozed until the contact writes', async () => {
    const company = await api.createCompany({});
    const auth = { Authorization: `Bearer ${await api.createKey(company.id, { scopes: ['tickets:read', 'tickets:write'] })}` };
    const setor = await api.createSetor(company.id, { nome: 'Vendas' });
    const repos = api.container.get<ServiceRepositories>(Repositories);
    const ticketFor = async (phone: string) => {
      const contact = createContact(randomUUID(), company.id, phone, 'Ana', apiClock.now());
      await repos.contacts.insert(contact);
      await repos.conversations.findOrCreate(newConversation(randomUUID(), company.id, setor.id, contact.id, apiClock.now()));
      const res = await request(api.app).post('/v1/tickets').set(auth).send({ client_id: contact.id });
      expect(res.status).toBe(201);
      return res.body.data.id as string;
    };
    const timed = await ticketFor('+5511987651111');
    const open = await ticketFor('+5511987652222');
    const until = new Date(apiClock.now().getTime() + 60_000).toISOString();
    expect((await request(api.app).patch(`/v1/tickets/${timed}/status`).set(auth).send({ status: 'snoozed', snoozed_until: until })).status).toBe(200);
    expect((await request(api.app).patch(`/v1/tickets/${open}/status`).set(auth).send({ status: 'snoozed' })).status).toBe(200);

    const status = async (id: string) => (await request(api.app).get(`/v1/tickets/${id}`).set(auth)).body.data as { status: string; snoozed_until: string | null; waiting_since: string | null };
    const woken = await eventually(async () => {
      const t = await status(timed);
      return t.status === 'open' ? t : null;
    }, { timeoutMs: 30_000 });
    expect(woken.snoozed_until).toBeNull();
    expect(woken.waiting_since).not.toBeNull();
    const moved = await api.database.db.selectFrom('domain_events').select('data').where('company_id', '=', company.id).where('event', '=', 'conversation.status_changed').execute();
    expect(moved.map((e) => [e.data.ticketId, e.data.from, e.data.to, e.data.reason])).toContainEqual([timed, 'snoozed', 'open', 'snooze_expired']);
    expect((await status(open)).status).toBe('snoozed');
  }, 60_000);
});
