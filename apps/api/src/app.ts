import express, { Router, type Express } from 'express';
import type { Container } from 'inversify';
import { AuthenticateRequest } from '@carteiro/core';
import { adminAuthenticate, adminTokenCheck } from './http/admin-auth.js';
import { authenticate } from './http/auth.js';
import { errorHandler, jsonBodies, notFoundHandler } from './http/error-handler.js';
import { ApiMetrics, requestObservability } from './http/observability.js';
import { Metrics, metricsHandler, ProcessMetrics } from '@carteiro/metrics';
import { AppConfig, type Config } from '@carteiro/system';
import { ApiSettings, Logger, MetricsCollector } from './http/tokens.js';
import { registerApiDocs } from './openapi/api-docs.js';
import { registerConsole } from './console/console-static.js';
import { registerRoutes } from './http/register-routes.js';
import { apiRoutes } from './routes.js';

/**
 * The Express application: health probes, the public `/v1` API behind API keys and rate limits,
 * the operator's `/admin/v1` API behind the admin token, and one error handler for all.
 */
export function createApp(container: Container): Express {
  const settings = container.get<ApiSettings>(ApiSettings);
  const logger = container.get<Logger>(Logger);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');

  const metrics = ApiMetrics.of(container.isBound(Metrics) ? container.get<ProcessMetrics>(Metrics) : new ProcessMetrics());
  for (const collector of container.isBound(MetricsCollector) ? container.getAll<MetricsCollector>(MetricsCollector) : []) {
    collector.register(metrics.registry);
  }
  app.use(requestObservability(logger, metrics));
  // The operator's API first: no layer below serves a path under /admin/v1, and Express tries an app's layers one by
  // one, so a request of it (the simulator's inbound messages among them) skipped about twenty path matches here.
  const admin = Router();
  app.use('/admin/v1', admin);
  // Public unless METRICS_TOKEN is set (then a bearer token; 401 in the error envelope): docs/metrics.md.
  app.get('/metrics', metricsHandler({ registry: metrics.registry, token: container.get<Config>(AppConfig).metricsToken }));

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const ready = await settings.readiness().catch(() => false);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'unavailable' });
  });

  registerApiDocs(app); // public: the page at /docs
  registerConsole(app); // public: the console's static files at /console

  const json = jsonBodies(express.json({ limit: settings.bodyLimit, type: 'application/json' }));
  const v1 = Router();
  // The key before the body: a malformed or unsupported body with a key is answered with the rate-limit headers every
  // response carries (and counts against the limit), and a request without one is 401 before any body is read.
  v1.use(authenticate(container.get(AuthenticateRequest)));
  v1.use(json);
  admin.use(adminAuthenticate(adminTokenCheck(settings.adminTokenHash)));
  admin.use(json);

  // Public routes land on the app here, before the /v1 router demands a key.
  registerRoutes(apiRoutes, { app, v1, admin }, container);

  v1.use(notFoundHandler);
  app.use('/v1', v1);
  admin.use(notFoundHandler);

  app.use(notFoundHandler);
  app.use(errorHandler(logger));
  return app;
}
