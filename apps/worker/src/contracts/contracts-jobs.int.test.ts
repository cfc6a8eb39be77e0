import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { ContractQueues, UnitOfWork, createCompany, createContact, newContract, type Contract } from '@carteiro/core';
import type { ServiceUnitOfWork } from '@carteiro/postgres';
import { createTestWorker, eventually, type TestWorker } from '../testing/test-worker.js';

let worker: TestWorker;
beforeAll(async () => {
  worker = await createTestWorker();
});
afterAll(() => worker.close());

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);

it('the sweep returns a send stuck for 5 minutes to draft; the reconcile expires a contract past expires_at (real pg-boss jobs)', async () => {
  const uow = worker.container.get<ServiceUnitOfWork>(UnitOfWork);
  const company = createCompany(crypto.randomUUID(), new Date(), { name: 'Acme' });
  const client = createContact(crypto.randomUUID(), company.id, '+5511987650500', 'Ana', new Date());
  const contract = (extra: Partial<Contract>): Contract => ({
    ...newContract(
      {
        id: crypto.randomUUID(),
        companyId: company.id,
        title: 'Serviços',
        value: null,
        clientId: client.id,
        opportunityId: null,
        templateId: null,
        variables: {},
        content: 'x',
        signers: [{ id: crypto.randomUUID(), name: 'Ana', phone: client.phone, status: 'pending', signedAt: null, refusedAt: null, refusalReason: null, providerRef: null }],
        expiresInDays: 30,
      },
      minutesAgo(60),
    ),
    ...extra,
  });
  const stuck = contract({ status: 'sending', sendingSince: minutesAgo(6), provider: 'simulator', providerRef: 'sim_stuck' });
  const recent = contract({ status: 'sending', sendingSince: minutesAgo(1) });
  const overdue = contract({ status: 'sent', sentAt: minutesAgo(50), expiresAt: minutesAgo(5), provider: 'simulator', providerRef: `sim_${crypto.randomUUID()}` });
  await uow.transaction(async (tx) => {
    await tx.companies.insert(company);
    await tx.contacts.insert(client);
    for (const c of [stuck, recent, overdue]) await tx.contracts.insert(c);
  });
  const status = async (id: string) => (await uow.transaction((tx) => tx.contracts.findById(company.id, id)))?.status;

  await worker.boss.send(ContractQueues.sweep, {});
  await eventually(async () => (await status(stuck.id)) === 'draft');
  expect(await status(recent.id)).toBe('sending');
  const returned = await uow.transaction((tx) => tx.contracts.findById(company.id, stuck.id));
  expect(returned).toMatchObject({ provider: null, providerRef: null, sendingSince: null });

  await worker.boss.send(ContractQueues.reconcile, {});
  await eventually(async () => (await status(overdue.id)) === 'expired');
});
