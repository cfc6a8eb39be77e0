import pg from 'pg';

/**
 * Calls `listener` with every statement a driver client sends from now on (its text trimmed and lower-cased), before
 * sending it: how the round-trip tests count statements. Returns the function that puts the driver's own `query` back
 * (call it in afterAll).
 */
export function spyOnStatements(listener: (client: pg.Client, text: string) => void): () => void {
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string } | undefined;
    listener(this, (typeof first === 'string' ? first : (first?.text ?? '')).trim().toLowerCase());
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof pg.Client.prototype.query;
  return () => {
    pg.Client.prototype.query = original;
  };
}
