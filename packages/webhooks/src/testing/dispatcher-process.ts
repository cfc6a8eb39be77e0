// A worker reduced to its delivery loop, run as a child process by tests that kill it:
//   node --import ../../../../scripts/ts-loader/register.mjs dispatcher-process.ts
// Env: DATABASE_URL, LEASE_MS, RETRY_BASE_MS. Prints "ready" once it listens.
import { DeliverWebhooks, FanOutEvents, retryPolicy } from '@carteiro/core';
import { createDb, KyselyUnitOfWork, PgNotificationListener, WEBHOOKS_NOTIFY_CHANNEL } from '@carteiro/postgres';
import { randomUUID } from 'node:crypto';
import { HttpWebhookSender } from '../http-webhook-sender.js';
import { WebhookDispatcher } from '../webhook-dispatcher.js';

const url = process.env.DATABASE_URL!;
const db = createDb(url, { poolSize: 4, applicationName: 'carteiro-dispatcher-child' });
const uow = new KyselyUnitOfWork(db);
const clock = { now: () => new Date() };
const dispatcher = new WebhookDispatcher(
  new FanOutEvents(uow, { newId: () => randomUUID() }, clock),
  new DeliverWebhooks(uow, clock, new HttpWebhookSender({ allowPrivate: true }), retryPolicy(Number(process.env.RETRY_BASE_MS ?? 20))),
  new PgNotificationListener(url, WEBHOOKS_NOTIFY_CHANNEL),
  { leaseMs: Number(process.env.LEASE_MS ?? 1000), pollIntervalMs: 200 },
);
await dispatcher.start();
process.stdout.write('ready\n');
