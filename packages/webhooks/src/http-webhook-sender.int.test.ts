import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { WebhookUrlSafety, type HostResolver } from './url-safety.js';
import { HttpWebhookSender } from './http-webhook-sender.js';

interface Receiver {
  url: string;
  port: number;
  requests: { headers: IncomingMessage['headers']; body: string }[];
  connections: number;
  handler: (req: IncomingMessage, res: ServerResponse) => void;
  server: Server;
}

async function startReceiver(): Promise<Receiver> {
  const handler = (_req: IncomingMessage, res: ServerResponse) => void res.end('ok');
  const receiver = { requests: [], connections: 0, handler } as unknown as Receiver;
  receiver.server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      receiver.requests.push({ headers: req.headers, body });
      receiver.handler(req, res);
    });
  });
  receiver.server.on('connection', () => (receiver.connections += 1));
  await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
  receiver.port = (receiver.server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}/hook`;
  return receiver;
}

const request = (url: string, body = '{"event":"message.sent"}') => ({
  url,
  body,
  headers: { 'content-type': 'application/json', 'x-webhook-id': 'd-1' },
  timeoutMs: 5000,
});

describe('HTTP webhook sender', () => {
  let receiver: Receiver;
  const senders: HttpWebhookSender[] = [];
  const sender = (options: ConstructorParameters<typeof HttpWebhookSender>[0]) => {
    const created = new HttpWebhookSender(options);
    senders.push(created);
    return created;
  };

  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterEach(() => {
    receiver.requests = [];
    receiver.handler = (_req, res) => void res.end('ok');
  });
  afterAll(async () => {
    for (const s of senders) s.close();
    receiver.server.closeAllConnections();
    await new Promise((resolve) => receiver.server.close(resolve));
  });

  it('posts the body byte for byte with the given headers and reports the status, over one kept-alive connection', async () => {
    const http = sender({ allowPrivate: true });
    receiver.handler = (_req, res) => {
      res.statusCode = 202;
      res.end();
    };
    const before = receiver.connections;
    const body = JSON.stringify({ event: 'message.sent', data: { nome: 'João' } });
    for (let i = 0; i < 5; i += 1) {
      const outcome = await http.send(request(receiver.url, body));
      expect(outcome).toMatchObject({ kind: 'response', statusCode: 202 });
    }
    expect(receiver.requests).toHaveLength(5);
    expect(receiver.requests[0]?.body).toBe(body);
    expect(receiver.requests[0]?.headers['x-webhook-id']).toBe('d-1');
    expect(receiver.requests[0]?.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(receiver.connections - before).toBe(1);
  });

  it('gives up on a receiver that does not answer in time', async () => {
    const http = sender({ allowPrivate: true });
    receiver.handler = () => undefined; // never answers
    const outcome = await http.send({ ...request(receiver.url), timeoutMs: 200 });
    expect(outcome.kind).toBe('timeout');
    expect(outcome.durationMs).toBeGreaterThanOrEqual(190);
  });

  it('reports a refused connection as a network error', async () => {
    const closed = await startReceiver();
    await new Promise((resolve) => closed.server.close(resolve));
    const outcome = await sender({ allowPrivate: true }).send(request(closed.url));
    expect(outcome).toMatchObject({ kind: 'network_error' });
    expect((outcome as { error: string }).error).toMatch(/ECONNREFUSED/);
  });

  it('without the flag, never connects to loopback: neither a literal nor a name that resolves to it', async () => {
    const resolve: HostResolver = async () => [{ address: '127.0.0.1', family: 4 }];
    const strict = sender({ allowPrivate: false, resolve });
    const before = receiver.connections;
    expect(await strict.send(request(`https://127.0.0.1:${receiver.port}/hook`))).toMatchObject({ kind: 'blocked' });
    expect(await strict.send(request(`https://[::1]:${receiver.port}/hook`))).toMatchObject({ kind: 'blocked' });
    expect(await strict.send(request(`https://hooks.example.test:${receiver.port}/hook`))).toMatchObject({ kind: 'blocked' });
    expect(await strict.send(request(`http://hooks.example.test:${receiver.port}/hook`))).toMatchObject({ kind: 'blocked' });
    expect(receiver.connections).toBe(before);
    expect(receiver.requests).toHaveLength(0);
  });

  it('checks the address it connects to, not the one seen at registration (DNS rebinding)', async () => {
    let calls = 0;
    // First answer public (registration passes), then loopback (the attacker's rebind).
    const rebinding: HostResolver = async () => (calls++ === 0 ? [{ address: '93.184.216.34', family: 4 }] : [{ address: '127.0.0.1', family: 4 }]);
    const url = `https://rebind.example.test:${receiver.port}/hook`;
    await expect(new WebhookUrlSafety({ allowPrivate: false, resolve: rebinding }).check(url)).resolves.toBeUndefined();
    const before = receiver.connections;
    const outcome = await sender({ allowPrivate: false, resolve: rebinding }).send(request(url));
    expect(outcome).toMatchObject({ kind: 'blocked' });
    expect((outcome as { error: string }).error).toMatch(/127\.0\.0\.1/);
    expect(receiver.connections).toBe(before);
  });

  it('with the flag, connects to the address its resolver gave', async () => {
    const resolve: HostResolver = async () => [{ address: '127.0.0.1', family: 4 }];
    const outcome = await sender({ allowPrivate: true, resolve }).send(request(`http://receiver.example.test:${receiver.port}/hook`));
    expect(outcome).toMatchObject({ kind: 'response', statusCode: 200 });
    expect(receiver.requests[0]?.headers.host).toBe(`receiver.example.test:${receiver.port}`);
  });
});
