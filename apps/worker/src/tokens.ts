import type { Logger as Pino } from 'pino';

/** The process's pino logger (secrets redacted by its configuration). */
export const Logger = Symbol.for('carteiro.Logger');
export type Logger = Pino;
