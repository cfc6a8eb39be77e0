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

const MESSAGE_CHARS = 300;

/**
 * An error as a few short fields: its type, message, code (SQLSTATE or Node's) and where it was
 * thrown (the first frame outside node_modules and Node's internals). pino's default serializer
 * copies every enumerable property, and the database driver's errors carry their whole client
 * (about 4 kB a line). The whole stack only at the debug and trace levels.
 */
export function errorSummary(err: unknown, withStack = false): Record<string, unknown> {
  if (!(err instanceof Error)) {
    const message = typeof err === 'object' && err !== null && 'message' in err ? (err as { message: unknown }).message : err;
    return { message: String(message).slice(0, MESSAGE_CHARS) };
  }
  const { code } = err as { code?: unknown };
  const frames = (err.stack ?? '').split('\n').filter((line) => line.trimStart().startsWith('at '));
  const own = frames.find((line) => !line.includes('node_modules') && !line.includes('node:')) ?? frames[0];
  return {
    type: err.constructor?.name ?? err.name,
    message: err.message.slice(0, MESSAGE_CHARS),
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    ...(withStack ? { stack: err.stack } : own ? { at: own.trim().slice(3, 200) } : {}),
  };
}

/**
 * JSON lines on stdout, written asynchronously (lines logged while a write is pending go out together): a
 * synchronous write per request line cost about a tenth of the API's throughput. `flush()` before exiting
 * (the server does on shutdown).
 */
export function createLogger(level: string): Pino {
  return pino(
    {
      level,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      base: { service: 'carteiro' },
      serializers: { err: (err: unknown) => errorSummary(err, level === 'debug' || level === 'trace') },
    },
    pino.destination({ dest: 1, sync: false }),
  );
}
