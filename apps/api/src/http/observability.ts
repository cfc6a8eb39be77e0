import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { Counter, Histogram, type Registry } from 'prom-client';
import { ProcessMetrics } from '@carteiro/metrics';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

declare module 'express-serve-static-core' {
  interface Request {
    /** The request id (`X-Request-Id`). */
    id?: string;
    /** A logger whose every line carries the request id; made on first use. */
    log?: Logger;
  }
}

/** Where a request keeps its child logger (made on first use) and a response its start time. */
const CHILD_LOG = Symbol('carteiro.requestLog');
const ROOT_LOG = Symbol('carteiro.rootLog');
const STARTED = Symbol('carteiro.requestStarted');

type Observed = Request & { [CHILD_LOG]?: Logger; [ROOT_LOG]: Logger };

/**
 * `req.log` as one getter on the requests' prototype (Express's `app.request`), installed once: an accessor
 * defined on each request object, with a closure of its own, gave every request a hidden class of its own,
 * and every property Express and the routes add after it a new one as well.
 */
function installRequestLog(prototype: object, logger: Logger): void {
  Object.defineProperty(prototype, ROOT_LOG, { configurable: true, value: logger });
  Object.defineProperty(prototype, 'log', {
    configurable: true,
    get(this: Observed) {
      return (this[CHILD_LOG] ??= this[ROOT_LOG].child({ reqId: this.id }));
    },
    set(this: Observed, value: Logger) {
      this[CHILD_LOG] = value;
    },
  });
}

/**
 * The per-request plumbing of observability, in one middleware and one `finish` listener: a request id
 * (a valid incoming `X-Request-Id` is kept, otherwise a new one; echoed in the response), `req.log` (a child
 * logger with the id, made only when something logs), one access-log line per request (never headers or
 * bodies: they carry keys and tokens), and the request metrics. It replaces pino-http, whose per-request
 * child logger and listeners cost about a tenth of the API's throughput. Nothing is allocated per request
 * beyond the id and the line: the listener is one function, `req.log` a getter of the prototype.
 */
export function requestObservability(logger: Logger, metrics: ApiMetrics): RequestHandler {
  // The access line holds only the id, method, URL, status and time (no header, no body), so it skips the
  // redaction pass the process logger makes over every object of every line (a few % of a request's CPU).
  const access = logger.child({}, { redact: [] });
  const prototypes = new WeakSet<object>();
  function finished(this: Response & { [STARTED]: bigint }) {
    const seconds = Number(process.hrtime.bigint() - this[STARTED]) / 1e9;
    const req = this.req;
    const status = this.statusCode;
    metrics.observe(req.method, routeLabel(req), status, seconds);
    const line = { reqId: req.id, req: { method: req.method, url: req.originalUrl }, res: { statusCode: status }, responseTime: Math.round(seconds * 1000) };
    if (status >= 500) access.error(line, 'request errored');
    else access.info(line, 'request completed');
  }
  return (req, res, next) => {
    (res as Response & { [STARTED]: bigint })[STARTED] = process.hrtime.bigint();
    const prototype = Object.getPrototypeOf(req) as object;
    if (!prototypes.has(prototype)) {
      installRequestLog(prototype, logger);
      prototypes.add(prototype);
    }
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', id);
    req.id = id;
    res.on('finish', finished);
    next();
  };
}

/** The route pattern of a request (`/v1/campaigns/:id`), never its ids, to keep label cardinality bounded. */
export function routeLabel(req: Request): string {
  const route = (req as Request & { route?: { path?: string } }).route?.path;
  return route ? `${req.baseUrl}${route}` : 'unmatched';
}

/**
 * The HTTP metrics of one API process, in the process's registry (`ProcessMetrics`: sends, lanes, queues,
 * pools; shared with the worker in the combined server). Business metrics read from the database are
 * added by `MetricsCollector`s.
 */
export class ApiMetrics {
  readonly registry: Registry;
  private readonly requests = new Counter({
    name: 'carteiro_http_requests_total',
    help: 'HTTP requests by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [],
  });
  private readonly duration = new Histogram({
    name: 'carteiro_http_request_duration_seconds',
    help: 'HTTP request latency by method and route pattern.',
    labelNames: ['method', 'route'] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [],
  });

  private static readonly byProcess = new WeakMap<ProcessMetrics, ApiMetrics>();

  /** The HTTP metrics in a process's registry, registered once however many apps are made over it. */
  static of(processMetrics: ProcessMetrics): ApiMetrics {
    let found = ApiMetrics.byProcess.get(processMetrics);
    if (!found) ApiMetrics.byProcess.set(processMetrics, (found = new ApiMetrics(processMetrics)));
    return found;
  }

  constructor(processMetrics: ProcessMetrics = new ProcessMetrics()) {
    this.registry = processMetrics.registry;
    this.registry.registerMetric(this.requests);
    this.registry.registerMetric(this.duration);
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    this.requests.inc({ method, route, status: String(status) });
    this.duration.observe({ method, route }, seconds);
  }
}
