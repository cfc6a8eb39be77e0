import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a fake provider received. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export interface FakeReply {
  status: number;
  body?: unknown;
  /** Answer only after this long (to provoke client timeouts). */
  delayMs?: number;
}

export type FakeHandler = (request: RecordedRequest) => FakeReply | Promise<FakeReply>;

/** A loopback HTTP server for provider fakes: records requests and answers JSON. */
export class FakeHttpServer {
  readonly requests: RecordedRequest[] = [];
  private server: Server | null = null;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly handler: FakeHandler) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    let body: unknown = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      body = raw;
    }
    const request: RecordedRequest = { method: req.method ?? 'GET', path: decodeURIComponent(url.pathname), query: url.searchParams, headers: req.headers, body };
    this.requests.push(request);
    let reply: FakeReply;
    try {
      reply = await this.handler(request);
    } catch (error) {
      reply = { status: 500, body: { error: String(error) } };
    }
    const send = () => {
      if (res.destroyed) return;
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
    };
    if (reply.delayMs) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        send();
      }, reply.delayMs);
      this.timers.add(timer);
    } else {
      send();
    }
  }
}

/**
 * A provider fake on a loopback {@link FakeHttpServer}: its URL once started, the requests it
 * received, and the webhook posts it makes to the system under test. Subclasses answer requests.
 */
export abstract class FakeProviderServer {
  url = '';
  private readonly http = new FakeHttpServer((request) => this.handle(request));

  get requests(): RecordedRequest[] {
    return this.http.requests;
  }

  async start(): Promise<string> {
    this.url = await this.http.start();
    return this.url;
  }

  stop(): Promise<void> {
    return this.http.stop();
  }

  /** The provider's answer to one request. */
  protected abstract handle(request: RecordedRequest): FakeReply | Promise<FakeReply>;

  /** Posts a webhook as the provider does; answers the receiver's status and body (JSON when it parses, else the text). */
  protected async postJson(url: string, headers: Record<string, string>, raw: string): Promise<{ status: number; body: unknown }> {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: raw });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body };
  }
}

/** The last four digits of a recipient, by which the fakes pick their scripted failures (as the simulator does). */
export function lastFour(number: unknown): string {
  return String(number ?? '').replace(/\D/g, '').slice(-4);
}
