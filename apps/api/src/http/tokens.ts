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

/** A pino-compatible logger. */
export const Logger = Symbol.for('carteiro.Logger');
export interface Logger {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}
