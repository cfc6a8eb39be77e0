import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';

/** Where `/metrics` is read from and the bearer token it asks for (none: open). */
export interface MetricsEndpointOptions {
  registry: Registry;
  /** `METRICS_TOKEN`: when set, a scrape needs `Authorization: Bearer <token>`; 401 otherwise. */
  token?: string | undefined;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

function envelope(res: ServerResponse, status: number, code: string, message: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  if (status === 401) res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
  res.end(JSON.stringify({ success: false, error: { code, message } }));
}

/** Answers whether a request carries the metrics token (always true when none is configured); constant time. */
export function metricsTokenCheck(token: string | undefined): (authorization: string | undefined) => boolean {
  if (!token) return () => true;
  const expected = digest(token);
  return (authorization) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    return match !== null && timingSafeEqual(digest(match[1]!), expected);
  };
}

/**
 * The `/metrics` handler, the same in the API (an Express route) and in the worker's own listener:
 * the Prometheus text format, or 401 in the API's error envelope when a token is set and not presented.
 */
export function metricsHandler(options: MetricsEndpointOptions): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const allowed = metricsTokenCheck(options.token);
  return async (req, res) => {
    if (!allowed(req.headers.authorization)) return envelope(res, 401, 'UNAUTHORIZED', 'Missing or invalid metrics token');
    try {
      const text = await options.registry.metrics();
      res.statusCode = 200;
      res.setHeader('Content-Type', options.registry.contentType);
      res.setHeader('Cache-Control', 'no-store');
      res.end(text);
    } catch {
      envelope(res, 500, 'INTERNAL_ERROR', 'Metrics could not be collected');
    }
  };
}

/** A running metrics listener. */
export interface MetricsServer {
  server: Server;
  /** The port it listens on (the one asked for, or the one the system chose for 0). */
  port: number;
  close(): Promise<void>;
}

/**
 * A small HTTP listener for processes without the API (ROLE=worker with METRICS_PORT): `GET /metrics`
 * and `GET /healthz`; anything else is 404 in the error envelope.
 */
export async function startMetricsServer(options: MetricsEndpointOptions & { host: string; port: number }): Promise<MetricsServer> {
  const handle = metricsHandler(options);
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === '/metrics') return void handle(req, res);
    if (req.method === 'GET' && path === '/healthz') {
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      return void res.end(JSON.stringify({ status: 'ok' }));
    }
    envelope(res, 404, 'NOT_FOUND', `Route ${req.method} ${path} not found`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  return {
    server,
    port: typeof address === 'object' && address ? address.port : options.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
