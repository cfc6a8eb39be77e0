import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger as Pino } from 'pino';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * One log line per request, and a child logger with the request id on every line logged while
 * handling it (`req.log`). A valid incoming `X-Request-Id` is kept; otherwise a new one is made.
 * The id is echoed in the response's `X-Request-Id`.
 */
export function requestLogger(logger: Pino): RequestHandler {
  return pinoHttp({
    logger,
    quietReqLogger: true,
    genReqId: (req, res) => {
      const incoming = req.headers['x-request-id'];
      const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
    // Only what is needed to follow a request: never headers (they carry keys and tokens) nor bodies.
    serializers: {
      req: (req: { method: string; url: string }) => ({ method: req.method, url: req.url }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  }) as unknown as RequestHandler;
}

/** The route pattern of a request (`/v1/campaigns/:id`), never its ids, to keep label cardinality bounded. */
export function routeLabel(req: Request): string {
  const route = (req as Request & { route?: { path?: string } }).route?.path;
  return route ? `${req.baseUrl}${route}` : 'unmatched';
}

/** Prometheus metrics of one API process. Business metrics shared by all processes are added by collectors. */
export class ApiMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'carteiro_http_requests_total',
    help: 'HTTP requests by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly duration = new Histogram({
    name: 'carteiro_http_request_duration_seconds',
    help: 'HTTP request latency by method and route pattern.',
    labelNames: ['method', 'route'] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'carteiro_' });
  }

  middleware(): RequestHandler {
    return (req, res, next) => {
      const start = process.hrtime.bigint();
      res.on('finish', () => {
        const route = routeLabel(req);
        this.requests.inc({ method: req.method, route, status: String(res.statusCode) });
        this.duration.observe({ method: req.method, route }, Number(process.hrtime.bigint() - start) / 1e9);
      });
      next();
    };
  }
}
