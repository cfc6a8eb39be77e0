/** A pino-compatible logger. */
export const Logger = Symbol.for('carteiro.Logger');
export interface Logger {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}
