import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { CreateWebhook, DeliverWebhooks, FanOutEvents, createCompany, retryPolicy, type EventName, type Webhook } from '@carteiro/core';
import { SeededRandom } from '@carteiro/core/testing';
import { KyselyUnitOfWork, PgNotificationListener, WEBHOOKS_NOTIFY_CHANNEL } from '@carteiro/postgres';
import { createTestDatabase, type TestDatabase } from '@carteiro/postgres/testing';
import { HttpWebhookSender } from './http-webhook-sender.js';
import { WebhookUrlSafety } from './url-safety.js';
import { WebhookDispatcher } from './webhook-dispatcher.js';

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

/** A local receiver whose answers a test chooses; records every request. */
class Receiver {
  readonly requests: Received[] = [];
  answer: (req: IncomingMessage, res: ServerResponse, received: Received) => void = (_req, res) => res.end();
  private server!: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        const received = { headers: req.headers, body, at: Date.now() };
        this.requests.push(received);
        this.answer(req, res, received);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
    return this;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** Polls until `check` returns a value (not undefined/false) or the deadline passes. */
async function eventually<T>(check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error('condition not met before the deadline');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const clock = { now: () => new Date() };
const ids = { newId: () => randomUUID() };
const RETRY_BASE_MS = 20;

describe('webhook dispatcher on PostgreSQL', () => {
  let database: TestDatabase;
  let uow: KyselyUnitOfWork;
  let companyId: string;
  const receivers: Receiver[] = [];
  const dispatchers: WebhookDispatcher[] = [];
  const senders: HttpWebhookSender[] = [];

  const receiver = async () => {
    const created = await new Receiver().start();
    receivers.push(created);
    return created;
  };

  const startDispatcher = async (options: { timeoutMs?: number; leaseMs?: number } = {}) => {
    const sender = new HttpWebhookSender({ allowPrivate: true });
    senders.push(sender);
    const dispatcher = new WebhookDispatcher(
      new FanOutEvents(uow, ids, clock),
      new DeliverWebhooks(uow, clock, sender, retryPolicy(RETRY_BASE_MS), options.timeoutMs),
      new PgNotificationListener(database.url, WEBHOOKS_NOTIFY_CHANNEL),
      { concurrency: 16, leaseMs: options.leaseMs ?? 60_000, pollIntervalMs: 200 },
    );
    dispatchers.push(dispatcher);
    await dispatcher.start();
    return dispatcher;
  };

  const register = (url: string, events: EventName[]): Promise<Webhook> =>
    new CreateWebhook(uow, ids, clock, new SeededRandom(Date.now()), new WebhookUrlSafety({ allowPrivate: true })).execute(companyId, { url, events });

  /** A use case's change: the event is committed in its transaction. */
  const record = async (event: EventName, data: Record<string, unknown> = { campaignId: randomUUID() }) => {
    const id = randomUUID();
    await uow.transaction((repos) =>
      repos.events.record([{ id, event, companyId, setorId: null, occurredAt: new Date(), data, actor: { user_id: null, source: 'system' } }]),
    );
    return id;
  };

  const deliveriesOf = (eventId: string) =>
    database.db.selectFrom('webhook_deliveries').selectAll().where('event_id', '=', eventId).execute();

  beforeAll(async () => {
    database = await createTestDatabase({ poolSize: 10 });
    uow = new KyselyUnitOfWork(database.db);
    companyId = randomUUID();
    await uow.transaction((repos) => repos.companies.insert(createCompany(companyId, new Date(), { name: 'Acme' })));
  });

  afterEach(async () => {
    await Promise.all(dispatchers.splice(0).map((d) => d.stop()));
    for (const s of senders.splice(0)) s.close();
    await database.db.deleteFrom('webhooks').execute();
  });

  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.stop()));
    await database?.destroy();
  });

  it('delivers a signed envelope that an independent HMAC verifies, only for subscribed events', async () => {
    const sink = await receiver();
    const webhook = await register(sink.url, ['message.sent']);
    await startDispatcher();
    const unsubscribed = await record('message.failed');
    const eventId = await record('message.sent', { campaignId: 'k-1', status: 'sent' });
    const [request] = await eventually(() => sink.requests.length > 0 && sink.requests);
    const timestamp = request!.headers['x-webhook-timestamp'] as string;
    const expected = createHmac('sha256', webhook.secret).update(`${timestamp}.${request!.body}`, 'utf8').digest('hex');
    expect(request!.headers['x-webhook-signature']).toBe(expected);
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(10);
    expect(JSON.parse(request!.body)).toMatchObject({
      event: 'message.sent',
      version: 'v1',
      empresa_id: companyId,
      setor_id: null,
      data: { campaignId: 'k-1', status: 'sent' },
      actor: { user_id: null, source: 'system' },
    });
    const [delivery] = await eventually(async () => {
      const rows = await deliveriesOf(eventId);
      return rows[0]?.status === 'succeeded' && rows;
    });
    expect(request!.headers['x-webhook-id']).toBe(delivery!.id);
    expect(await deliveriesOf(unsubscribed)).toEqual([]);
    expect(sink.requests).toHaveLength(1);
  });

  it('makes exactly 5 attempts against a receiver answering 500, with one stable delivery id, and keeps the webhook', async () => {
    const sink = await receiver();
    sink.answer = (_req, res) => {
      res.statusCode = 500;
      res.end();
    };
    const webhook = await register(sink.url, ['campaign.completed']);
    await startDispatcher();
    const eventId = await record('campaign.completed');
    const [delivery] = await eventually(async () => {
      const rows = await deliveriesOf(eventId);
      return rows[0]?.status === 'failed' && rows;
    });
    expect(delivery).toMatchObject({ attempts: 5, next_attempt_at: null, last_status_code: 500 });
    expect(sink.requests).toHaveLength(5);
    expect(new Set(sink.requests.map((r) => r.headers['x-webhook-id']))).toEqual(new Set([delivery!.id]));
    // Backoff: each gap at least base × 1, 4, 16, 64.
    const gaps = sink.requests.slice(1).map((r, i) => r.at - sink.requests[i]!.at);
    gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(RETRY_BASE_MS * 4 ** i - 5));
    const attempts = await database.db.selectFrom('webhook_attempts').selectAll().where('delivery_id', '=', delivery!.id).orderBy('number').execute();
    expect(attempts.map((a) => [a.number, a.status_code, a.result])).toEqual([
      [1, 500, 'retry'],
      [2, 500, 'retry'],
      [3, 500, 'retry'],
      [4, 500, 'retry'],
      [5, 500, 'failed'],
    ]);
    expect(await database.db.selectFrom('webhooks').select('active').where('id', '=', webhook.id).executeTakeFirst()).toEqual({ active: true });
  });

  it('makes one attempt against a receiver answering 400', async () => {
    const sink = await receiver();
    sink.answer = (_req, res) => {
      res.statusCode = 400;
      res.end();
    };
    await register(sink.url, ['campaign.paused']);
    await startDispatcher();
    const eventId = await record('campaign.paused');
    const [delivery] = await eventually(async () => {
      const rows = await deliveriesOf(eventId);
      return rows[0]?.status === 'failed' && rows;
    });
    expect(delivery).toMatchObject({ attempts: 1, last_status_code: 400 });
    expect(sink.requests).toHaveLength(1);
  });

  it('retries after a receiver time-out, with the same delivery id', async () => {
    const sink = await receiver();
    sink.answer = (_req, res) => {
      if (sink.requests.length > 1) res.end(); // the first request is left hanging
    };
    await register(sink.url, ['campaign.started']);
    await startDispatcher({ timeoutMs: 300 });
    const eventId = await record('campaign.started');
    const [delivery] = await eventually(async () => {
      const rows = await deliveriesOf(eventId);
      return rows[0]?.status === 'succeeded' && rows;
    });
    expect(delivery!.attempts).toBe(2);
    expect(sink.requests.map((r) => r.headers['x-webhook-id'])).toEqual([delivery!.id, delivery!.id]);
    const attempts = await database.db.selectFrom('webhook_attempts').selectAll().where('delivery_id', '=', delivery!.id).orderBy('number').execute();
    expect(attempts[0]).toMatchObject({ status_code: null, result: 'retry' });
    expect(attempts[0]!.error).toMatch(/timeout/);
  });

  it('shares the work between several workers without delivering an event twice', async () => {
    const sink = await receiver();
    await register(sink.url, ['message.delivered']);
    await Promise.all([startDispatcher(), startDispatcher(), startDispatcher()]);
    const eventIds = await Promise.all(Array.from({ length: 60 }, () => record('message.delivered')));
    await eventually(async () => {
      const done = await database.db
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('event_id', 'in', eventIds)
        .where('status', '=', 'succeeded')
        .executeTakeFirstOrThrow();
      return Number(done.n) === 60;
    });
    const ids = sink.requests.map((r) => r.headers['x-webhook-id']);
    expect(ids).toHaveLength(60);
    expect(new Set(ids).size).toBe(60);
  });

  it('loses no event when the worker is killed between the change and the delivery', async () => {
    const sink = await receiver();
    sink.answer = () => undefined; // the first worker dies while its attempt is in flight
    await register(sink.url, ['campaign.completed']);
    const here = path.dirname(fileURLToPath(import.meta.url));
    const child: ChildProcess = spawn(process.execPath, ['--import', path.resolve(here, '../../../scripts/ts-loader/register.mjs'), 'dispatcher-process.ts'], {
      cwd: path.join(here, 'testing'),
      env: { ...process.env, NODE_OPTIONS: '', DATABASE_URL: database.url, LEASE_MS: '1500', RETRY_BASE_MS: String(RETRY_BASE_MS) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await eventually(() => output.includes('ready'), 20_000);
    const inFlight = await record('campaign.completed', { campaignId: 'in-flight' });
    await eventually(() => sink.requests.length === 1);
    child.kill('SIGKILL');
    await exited;
    // A change committed while no worker runs at all.
    const whileDead = await record('campaign.completed', { campaignId: 'while-dead' });

    sink.answer = (_req, res) => res.end();
    await startDispatcher({ leaseMs: 1500 });
    for (const eventId of [inFlight, whileDead]) {
      await eventually(async () => {
        const rows = await deliveriesOf(eventId);
        return rows.length === 1 && rows[0]!.status === 'succeeded';
      }, 15_000);
    }
    const byCampaign = (id: string) => sink.requests.filter((r) => JSON.parse(r.body).data.campaignId === id);
    // The attempt cut short by the kill is made again, under the same delivery id.
    expect(byCampaign('in-flight').length).toBe(2);
    expect(new Set(byCampaign('in-flight').map((r) => r.headers['x-webhook-id'])).size).toBe(1);
    expect(byCampaign('while-dead').length).toBe(1);
  }, 40_000);
});
