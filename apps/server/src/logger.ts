import pino, { type Logger as Pino } from 'pino';

/** Paths that may carry secrets: keys, tokens, webhook secrets. They never reach a log line. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'headers.authorization',
  'authorization',
  '*.authorization',
  'key',
  '*.key',
  'secret',
  '*.secret',
  'token',
  '*.token',
  'access_token',
  '*.access_token',
  'accessToken',
  '*.accessToken',
  'adminToken',
  'password',
  '*.password',
];

/**
 * JSON lines on stdout, written asynchronously (lines logged while a write is pending go out together): a
 * synchronous write per request line cost about a tenth of the API's throughput. `flush()` before exiting
 * (the server does on shutdown).
 */
export function createLogger(level: string): Pino {
  return pino(
    { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: { service: 'carteiro' } },
    pino.destination({ dest: 1, sync: false }),
  );
}
