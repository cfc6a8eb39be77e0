import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { createChannelInstance, createCompany, createSetor, UnitOfWork } from '@carteiro/core';
import { createTestWorker, eventually, type TestWorker } from '../testing/test-worker.js';
import { CHANNEL_HEALTH_QUEUE } from './channel-health.job.js';
import type { ServiceUnitOfWork } from '@carteiro/postgres';

let worker: TestWorker;
beforeAll(async () => {
  worker = await createTestWorker();
});
afterAll(() => worker.close());

it('checks every instance through a real pg-boss job on its per-minute schedule, reconciling lost sessions', async () => {
  const uow = worker.container.get<ServiceUnitOfWork>(UnitOfWork);
  const now = new Date();
  const company = createCompany(crypto.randomUUID(), now, { name: 'Acme' });
  const live = createSetor(crypto.randomUUID(), company.id, now, { nome: 'Conectada' });
  const lost = createSetor(crypto.randomUUID(), company.id, now, { nome: 'Perdida' });
  const liveInstance = { ...createChannelInstance(crypto.randomUUID(), live, now), status: 'connected' as const, phoneNumber: '+5511911110000', connectedAt: now };
  // A session the simulator never started (no QR, no connection): the provider says it is closed.
  const lostInstance = { ...createChannelInstance(crypto.randomUUID(), lost, now), status: 'connecting' as const };
  await uow.transaction(async (repos) => {
    await repos.companies.insert(company);
    await repos.setores.insert(live);
    await repos.setores.insert(lost);
    await repos.channelInstances.insert(liveInstance);
    await repos.channelInstances.insert(lostInstance);
  });

  await worker.boss.send(CHANNEL_HEALTH_QUEUE, {});

  const { db } = worker.database;
  const rows = await eventually(async () => {
    const found = await db.selectFrom('channel_health').selectAll().where('company_id', '=', company.id).execute();
    return found.length === 2 ? found : null;
  });
  const bySetor = new Map(rows.map((r) => [r.setor_id, r]));
  expect(bySetor.get(live.id)).toMatchObject({ state: 'healthy', connected: true, responding: true, consecutive_failures: 0 });
  expect(bySetor.get(lost.id)).toMatchObject({ state: 'down', connected: false, consecutive_failures: 1 });
  const history = await db.selectFrom('channel_health_history').selectAll().where('company_id', '=', company.id).execute();
  expect(history).toHaveLength(2);
  const instance = await db.selectFrom('channel_instances').select('status').where('id', '=', lostInstance.id).executeTakeFirstOrThrow();
  expect(instance.status).toBe('disconnected');
  expect((await worker.boss.getSchedules()).map((s) => s.name)).toContain(CHANNEL_HEALTH_QUEUE);
});
