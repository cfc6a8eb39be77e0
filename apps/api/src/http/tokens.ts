/** Values the composition root provides to the HTTP layer. */
export const ApiSettings = Symbol.for('carteiro.api.ApiSettings');

export interface ApiSettings {
  /** SHA-256 (hex) of the admin token, or undefined: the admin API then answers 404. */
  adminTokenHash: string | undefined;
  /** Answers whether the database and the queue are reachable (`/readyz`). */
  readiness: () => Promise<boolean>;
  /** Largest accepted JSON body. */
  bodyLimit: string;
}

import type { Logger as Pino } from 'pino';

/** The process's pino logger (secrets redacted by its configuration). */
export const Logger = Symbol.for('carteiro.Logger');
export type Logger = Pino;

/** A Prometheus collector of business metrics read from the shared database at scrape time. */
export const MetricsCollector = Symbol.for('carteiro.api.MetricsCollector');
export interface MetricsCollector {
  register(registry: import('prom-client').Registry): void;
}

/** The OpenAPI document as JSON text, built once on first use (bound by the composition root). */
export const OpenApiDocumentJson = Symbol.for('carteiro.api.OpenApiDocumentJson');
export type OpenApiDocumentJson = () => string;
